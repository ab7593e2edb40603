package planast

import (
	"slices"
	"strings"
)

// sqlFuncAdvice says, for SQL functions a planner reaches for that the plan
// language spells otherwise or lacks, what to write instead. Edit distance
// alone misleads here: LPAD is two edits from LEAD and LEN one, and a
// planner told "did you mean LEAD?" writes a window it never wanted.
var sqlFuncAdvice = map[string]string{}

func init() {
	for _, a := range []struct{ names, advice string }{
		{"IFNULL NVL ISNULL",
			"write COALESCE(x, fallback)"},
		{"IIF IF DECODE GREATEST LEAST SIGN",
			`write a "case" expression`},
		{"LEN CHAR_LENGTH CHARACTER_LENGTH",
			"write LENGTH(x)"},
		{"SUBSTRING MID",
			"write SUBSTR(x, start, len)"},
		{"INSTR STRPOS CHARINDEX LOCATE",
			"write POSITION(text, sub)"},
		{"LTRIM RTRIM BTRIM",
			"write TRIM(x) (both ends)"},
		{"EXTRACT DATEPART YEAR MONTH DAY HOUR MINUTE WEEKDAY DAYOFWEEK DAYOFYEAR QUARTER",
			"write DATE_PART(unit, x)"},
		{"DATEADD DATE_SUB ADD_MONTHS TIMESTAMPADD",
			"write DATE_ADD(unit, n, x)"},
		{"MOD",
			`write the "%" operator`},
		{"CONCAT_WS",
			`write CONCAT(a, sep, b, ...)`},
		{"STRFTIME TO_CHAR DATE_FORMAT FORMAT",
			"write PERIOD_LABEL(unit, x) for 'YYYY', 'YYYY-Qn', 'YYYY-MM' or 'YYYY-MM-DD' labels, DATE_PART(unit, x) for numbers"},
		{"DATEDIFF DATE_DIFF JULIANDAY AGE TIMESTAMPDIFF",
			"write DATE_DIFF_DAYS(end, start) for calendar days or ELAPSED_SECONDS(end, start) for time"},
		{"TO_TIMESTAMP",
			`for seconds since 1970 (Unix time) write FROM_EPOCH_SECONDS(x) (of milliseconds: x / 1000); for text, a cast: {"kind": "cast", "expr": x, "type": "timestamp"}`},
		{"FROM_UNIXTIME FROM_UNIX_TIMESTAMP FROM_EPOCH FROM_EPOCH_SEC FROM_EPOCH_S TO_TIMESTAMP_S EPOCH_S",
			"write FROM_EPOCH_SECONDS(x) for seconds since 1970 (x / 1000 for milliseconds)"},
		{"UNIXEPOCH UNIX_TIMESTAMP TO_UNIXTIME EPOCH EPOCH_SECONDS",
			"for the seconds since 1970 of a timestamp write ELAPSED_SECONDS(x, TIMESTAMP '1970-01-01 00:00:00'); to read seconds since 1970 as a timestamp, FROM_EPOCH_SECONDS(x)"},
		{"TO_DATE STR_TO_DATE DATE DATETIME CONVERT CAST TO_NUMBER STRPTIME TRY_STRPTIME PARSE_DATE PARSE_DATETIME PARSE_TIMESTAMP DATE_PARSE TRY_CAST",
			`write a cast: {"kind": "cast", "expr": x, "type": "date"} (or timestamp, integer, decimal, float, text); text that holds no such value becomes NULL, and the result counts those`},
		{"TIMEZONE CONVERT_TZ CONVERT_TIMEZONE FROM_UTC_TIMESTAMP TO_LOCAL_TIME SWITCHOFFSET AT_TIMEZONE",
			"write AT_TIME_ZONE(instant, zone): the instant first, then an IANA zone name ('Europe/London') or a text column of them; it gives the local wall-clock timestamp"},
		{"NOW GETDATE SYSDATE SYSDATETIME LOCALTIMESTAMP TODAY CURDATE CURTIME",
			`write a literal of the date or time meant (the guide's run date); CURRENT_DATE and CURRENT_TIMESTAMP are UTC`},
		{"CEIL CEILING",
			`write a "case": ROUND(x) when ROUND(x) >= x, else ROUND(x) + 1`},
		{"FLOOR",
			`write a "case": ROUND(x) when ROUND(x) <= x, else ROUND(x) - 1`},
		{"TRUNC TRUNCATE",
			`write a "case": FLOOR's (ROUND(x) when ROUND(x) <= x, else ROUND(x) - 1) for x >= 0, CEIL's below 0; ROUND(x, digits) rounds to digits`},
		{"POWER POW SQUARE",
			"there is no power function: multiply (x * x), or SQRT(x) for a square root"},
		{"LOG LOG10 LOG2 EXP",
			"write LN(x) (a base-10 logarithm is LN(x) / LN(10)); there is no EXP"},
		{"STRING_AGG GROUP_CONCAT LISTAGG ARRAY_AGG LIST JSON_AGG JSON_GROUP_ARRAY",
			"there is no list aggregate: select the rows, ordered, and join them in the answer"},
		{"MEDIAN PERCENTILE_CONT PERCENTILE_DISC QUANTILE QUANTILE_CONT QUANTILE_DISC MODE",
			"there is no percentile aggregate: number the ordered values with ROW_NUMBER and COUNT(*) windows and keep the middle"},
		{"COUNT_IF COUNTIF",
			`write SUM of a "case" expression that gives 1 or 0`},
		{"ANY_VALUE FIRST LAST FIRST_VALUE LAST_VALUE NTH_VALUE ARBITRARY",
			"write MIN or MAX, or keep the row ROW_NUMBER numbers 1"},
		{"NTILE PERCENT_RANK CUME_DIST",
			"write ROW_NUMBER, RANK or DENSE_RANK with a COUNT(*) window"},
		{"LPAD",
			"write RIGHT(CONCAT('00000000', x), n) to pad x on the left to n characters"},
		{"RPAD",
			"write LEFT(CONCAT(x, '        '), n) to pad x on the right to n characters"},
		{"REPEAT REVERSE INITCAP TRANSLATE SPLIT_PART REGEXP_REPLACE REGEXP_MATCHES REGEXP_LIKE REGEXP_SUBSTR REGEXP_EXTRACT REGEXP_MATCH",
			"there is no such text function: SUBSTR, LEFT, RIGHT, POSITION, REPLACE, CONCAT, TRIM, UPPER, LOWER and like patterns are; shape the text in the answer"},
		{"RANDOM RAND UUID GEN_RANDOM_UUID NEWID",
			"not available: a plan gives the same answer on every run"},
	} {
		for _, n := range strings.Fields(a.names) {
			sqlFuncAdvice[n] = a.advice
		}
	}
}

// SQLFuncAdvice returns what to write instead of the SQL function name,
// which is not in the plan language, or "" when there is no advice.
//
// A Unix time in another unit (FROM_EPOCH_MILLISECONDS, EPOCH_MS,
// TO_TIMESTAMP_MICROS: engines spell them many ways) is FROM_EPOCH_SECONDS
// of it divided; edit distance finds no such name, so the unit is read
// off the name.
func SQLFuncAdvice(name string) string {
	n := strings.ToUpper(strings.TrimSpace(name))
	if a := sqlFuncAdvice[n]; a != "" {
		return a
	}
	if !strings.Contains(n, "EPOCH") && !strings.Contains(n, "UNIX") && !strings.Contains(n, "TIMESTAMP") {
		return ""
	}
	words := strings.FieldsFunc(n, func(r rune) bool { return r == '_' })
	for _, u := range []struct{ words, per, unit string }{
		{"MILLISECONDS MILLISECOND MILLIS MILLI MS", "1000", "milliseconds"},
		{"MICROSECONDS MICROSECOND MICROS MICRO US", "1000000", "microseconds"},
		{"NANOSECONDS NANOSECOND NANOS NANO NS", "1000000000", "nanoseconds"},
	} {
		for _, w := range words {
			if slices.Contains(strings.Fields(u.words), w) {
				return "for " + u.unit + " since 1970 write FROM_EPOCH_SECONDS(x / " + u.per + ")"
			}
		}
	}
	return ""
}
