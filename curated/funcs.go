package curated

// Function allow-lists per dialect: what a verified query may call, by
// lower-case name (a schema qualifier is refused, except pg_catalog, which
// PostgreSQL's parser itself writes for SQL-standard syntax such as EXTRACT
// and SUBSTRING … FROM). Everything else is refused: file and network
// access (load_extension, pg_read_file, lo_import, read_csv, glob), side
// effects (setval, nextval), sleeping (pg_sleep), and anything unknown.
// COALESCE, NULLIF, GREATEST, LEAST, CASE and CAST are syntax, not calls.
var (
	aggregates = []string{"count", "sum", "avg", "min", "max"}
	windows    = []string{"row_number", "rank", "dense_rank", "ntile", "lag", "lead",
		"first_value", "last_value", "nth_value", "percent_rank", "cume_dist"}

	sqliteFuncs = []string{"abs", "coalesce", "ifnull", "iif", "nullif", "instr", "length", "lower", "upper",
		"ltrim", "rtrim", "trim", "replace", "round", "substr", "substring", "date", "time", "datetime",
		"julianday", "strftime", "unixepoch", "total", "group_concat", "typeof", "sign", "max", "min"}

	postgresFuncs = []string{"abs", "ceil", "ceiling", "floor", "round", "trunc", "mod", "power", "sqrt", "sign",
		"lower", "upper", "length", "char_length", "substr", "substring", "position", "strpos", "btrim", "ltrim",
		"rtrim", "trim", "replace", "concat", "concat_ws", "left", "right", "lpad", "rpad", "split_part",
		"initcap", "to_char", "to_date", "to_number", "date_trunc", "date_part", "extract", "age", "make_date",
		"timezone", "overlay", "string_agg", "bool_and", "bool_or", "every", "stddev", "stddev_pop",
		"stddev_samp", "variance", "var_pop", "var_samp", "percentile_cont", "percentile_disc", "mode",
		"coalesce", "nullif", "now", "current_date", "date"}

	duckdbFuncs = []string{"abs", "ceil", "ceiling", "floor", "round", "trunc", "mod", "power", "pow", "sqrt", "sign",
		"lower", "upper", "length", "char_length", "substr", "substring", "position", "strpos", "trim", "ltrim",
		"rtrim", "replace", "concat", "concat_ws", "left", "right", "lpad", "rpad", "split_part", "strftime",
		"strptime", "date_trunc", "date_part", "datepart", "extract", "date_diff", "datediff", "date_add",
		"make_date", "year", "month", "day", "quarter", "week", "dayofweek", "dayname", "monthname", "age",
		"string_agg", "group_concat", "bool_and", "bool_or", "stddev", "stddev_pop", "stddev_samp", "variance",
		"var_pop", "var_samp", "median", "mode", "quantile_cont", "quantile_disc", "percentile_cont",
		"percentile_disc", "count_star", "coalesce", "nullif", "ifnull", "current_date", "today", "timezone"}
)

var allowed = func() map[string]map[string]bool {
	m := map[string]map[string]bool{}
	for dialect, list := range map[string][]string{"sqlite": sqliteFuncs, "postgres": postgresFuncs, "duckdb": duckdbFuncs} {
		set := map[string]bool{}
		for _, l := range [][]string{list, aggregates, windows} {
			for _, f := range l {
				set[f] = true
			}
		}
		m[dialect] = set
	}
	return m
}()

// functionAllowed reports whether dialect's allow-list has the function
// (name lower-case).
func functionAllowed(dialect, name string) bool { return allowed[dialect][name] }
