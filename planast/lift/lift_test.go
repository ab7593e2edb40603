package lift

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// liftCase is SQL and the plan it lifts to, as canonical JSON.
type liftCase struct {
	name, sql, want string
}

// TestLiftSQLite lifts one query per construct (SQLite dialect) and checks
// the whole plan, then that the validator accepts it.
func TestLiftSQLite(t *testing.T) {
	cases := []liftCase{
		{"select",
			"SELECT name FROM singer",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"singer","alias":"t1"}]}`},
		{"distinct",
			"SELECT DISTINCT country FROM singer WHERE age > 20",
			`{"distinct":true,"select":[{"expr":{"kind":"column","table":"t1","column":"Country"},"alias":"Country"}],"from":[{"table":"singer","alias":"t1"}],"where":{"kind":"binary","op":"\u003e","left":{"kind":"column","table":"t1","column":"Age"},"right":{"kind":"literal","type":"integer","value":20}}}`},
		{"star",
			"SELECT * FROM stadium",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Stadium_ID"},"alias":"Stadium_ID"},{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"},{"expr":{"kind":"column","table":"t1","column":"Capacity"},"alias":"Capacity"},{"expr":{"kind":"column","table":"t1","column":"Average"},"alias":"Average"}],"from":[{"table":"stadium","alias":"t1"}]}`},
		{"qualified star",
			"SELECT T2.* FROM singer AS T1 JOIN stadium AS T2 ON T1.age = T2.capacity",
			`{"select":[{"expr":{"kind":"column","table":"t2","column":"Stadium_ID"},"alias":"Stadium_ID"},{"expr":{"kind":"column","table":"t2","column":"Name"},"alias":"Name"},{"expr":{"kind":"column","table":"t2","column":"Capacity"},"alias":"Capacity"},{"expr":{"kind":"column","table":"t2","column":"Average"},"alias":"Average"}],"from":[{"table":"singer","alias":"t1"},{"table":"stadium","alias":"t2"}],"joins":[{"type":"inner","left":"t1","right":"t2","on":[{"left_column":"Age","right_column":"Capacity"}]}]}`},
		{"join on pairs",
			"SELECT T1.name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T2.singer_id = T1.singer_id AND T1.age > 20 JOIN concert AS T3 ON T3.concert_id = T2.concert_id",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"singer","alias":"t1"},{"table":"singer_in_concert","alias":"t2"},{"table":"concert","alias":"t3"}],"joins":[{"type":"inner","left":"t1","right":"t2","on":null,"condition":{"kind":"binary","op":"and","left":{"kind":"binary","op":"=","left":{"kind":"cast","expr":{"kind":"column","table":"t2","column":"Singer_ID"},"type":"decimal"},"right":{"kind":"column","table":"t1","column":"Singer_ID"}},"right":{"kind":"binary","op":"\u003e","left":{"kind":"column","table":"t1","column":"Age"},"right":{"kind":"literal","type":"integer","value":20}}}},{"type":"inner","left":"t2","right":"t3","on":[{"left_column":"concert_ID","right_column":"concert_ID"}]}]}`},
		{"left join",
			"SELECT T1.name, T2.concert_id FROM singer AS T1 LEFT JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"},{"expr":{"kind":"column","table":"t2","column":"concert_ID"},"alias":"concert_ID"}],"from":[{"table":"singer","alias":"t1"},{"table":"singer_in_concert","alias":"t2"}],"joins":[{"type":"left","left":"t1","right":"t2","on":null,"condition":{"kind":"binary","op":"=","left":{"kind":"column","table":"t1","column":"Singer_ID"},"right":{"kind":"cast","expr":{"kind":"column","table":"t2","column":"Singer_ID"},"type":"decimal"}}}]}`},
		{"comma join",
			"SELECT T2.name FROM concert AS T1, stadium AS T2, singer AS T3 WHERE T3.age = T2.capacity AND T1.concert_name = T2.name AND T1.year = '2014'",
			`{"select":[{"expr":{"kind":"column","table":"t2","column":"Name"},"alias":"Name"}],"from":[{"table":"concert","alias":"t1"},{"table":"stadium","alias":"t2"},{"table":"singer","alias":"t3"}],"joins":[{"type":"inner","left":"t1","right":"t2","on":[{"left_column":"concert_Name","right_column":"Name"}]},{"type":"inner","left":"t2","right":"t3","on":[{"left_column":"Capacity","right_column":"Age"}]}],"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"t1","column":"Year"},"right":{"kind":"literal","type":"string","value":"2014"}}}`},
		{"join without on",
			"SELECT T1.name FROM singer AS T1 JOIN stadium AS T2 WHERE T1.age = T2.capacity",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"singer","alias":"t1"},{"table":"stadium","alias":"t2"}],"joins":[{"type":"inner","left":"t1","right":"t2","on":[{"left_column":"Age","right_column":"Capacity"}]}]}`},
		{"group having",
			"SELECT country, count(*) FROM singer GROUP BY country HAVING count(*) > 1",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Country"},"alias":"Country"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"count"}],"from":[{"table":"singer","alias":"t1"}],"group_by":[{"kind":"column","table":"t1","column":"Country"}],"having":{"kind":"binary","op":"\u003e","left":{"kind":"func","name":"COUNT","args":[]},"right":{"kind":"literal","type":"integer","value":1}}}`},
		{"order nulls sqlite",
			"SELECT name FROM singer ORDER BY age, name DESC LIMIT 3 OFFSET 1",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"singer","alias":"t1"}],"order_by":[{"expr":{"kind":"column","table":"t1","column":"Age"},"nulls":"first"},{"expr":{"kind":"column","column":"Name"},"direction":"desc"}],"limit":3,"offset":1}`},
		{"order nulls explicit",
			"SELECT name FROM singer ORDER BY age DESC NULLS FIRST",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"singer","alias":"t1"}],"order_by":[{"expr":{"kind":"column","table":"t1","column":"Age"},"direction":"desc","nulls":"first"}]}`},
		{"limit comma",
			"SELECT name FROM singer ORDER BY age LIMIT 1, 2",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"singer","alias":"t1"}],"order_by":[{"expr":{"kind":"column","table":"t1","column":"Age"},"nulls":"first"}],"limit":2,"offset":1}`},
		{"order by alias and position",
			"SELECT name AS n, age FROM singer ORDER BY n, 2 DESC",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"n"},{"expr":{"kind":"column","table":"t1","column":"Age"},"alias":"Age"}],"from":[{"table":"singer","alias":"t1"}],"order_by":[{"expr":{"kind":"column","column":"n"},"nulls":"first"},{"expr":{"kind":"column","column":"Age"},"direction":"desc"}]}`},
		{"order by hidden column",
			"SELECT name FROM singer ORDER BY age",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"singer","alias":"t1"}],"order_by":[{"expr":{"kind":"column","table":"t1","column":"Age"},"nulls":"first"}]}`},
		{"in list",
			"SELECT name FROM singer WHERE country IN ('France', \"Spain\") AND age NOT IN (20, 30)",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"singer","alias":"t1"}],"where":{"kind":"binary","op":"and","left":{"kind":"in","expr":{"kind":"column","table":"t1","column":"Country"},"list":[{"kind":"literal","type":"string","value":"France"},{"kind":"literal","type":"string","value":"Spain"}]},"right":{"kind":"in","expr":{"kind":"column","table":"t1","column":"Age"},"list":[{"kind":"literal","type":"integer","value":20},{"kind":"literal","type":"integer","value":30}],"negated":true}}}`},
		{"in subquery",
			"SELECT name FROM stadium WHERE stadium_id NOT IN (SELECT capacity FROM stadium WHERE average > 10)",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"stadium","alias":"t1"}],"where":{"kind":"in","expr":{"kind":"column","table":"t1","column":"Stadium_ID"},"subquery":{"select":[{"expr":{"kind":"column","table":"t2","column":"Capacity"},"alias":"Capacity"}],"from":[{"table":"stadium","alias":"t2"}],"where":{"kind":"binary","op":"\u003e","left":{"kind":"column","table":"t2","column":"Average"},"right":{"kind":"literal","type":"integer","value":10}}},"negated":true}}`},
		{"exists correlated",
			"SELECT name FROM stadium AS s WHERE EXISTS (SELECT 1 FROM concert AS c WHERE c.concert_name = s.name)",
			`{"select":[{"expr":{"kind":"column","table":"s","column":"Name"},"alias":"Name"}],"from":[{"table":"stadium","alias":"s"}],"where":{"kind":"exists","subquery":{"select":[{"expr":{"kind":"literal","type":"integer","value":1},"alias":"expr_1"}],"from":[{"table":"concert","alias":"c"}],"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"c","column":"concert_Name"},"right":{"kind":"column","table":"s","column":"Name"}}}}}`},
		{"scalar subquery",
			"SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer)",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"singer","alias":"t1"}],"where":{"kind":"binary","op":"\u003e","left":{"kind":"column","table":"t1","column":"Age"},"right":{"kind":"subquery","query":{"select":[{"expr":{"kind":"func","name":"AVG","args":[{"kind":"column","table":"t2","column":"Age"}]},"alias":"avg_age"}],"from":[{"table":"singer","alias":"t2"}]}}}}`},
		{"derived table",
			"SELECT t.c, t.n FROM (SELECT country AS c, count(*) AS n FROM singer GROUP BY country) AS t WHERE t.n > 1",
			`{"select":[{"expr":{"kind":"column","table":"t","column":"c"},"alias":"c"},{"expr":{"kind":"column","table":"t","column":"n"},"alias":"n"}],"from":[{"subquery":{"select":[{"expr":{"kind":"column","table":"t1","column":"Country"},"alias":"c"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"singer","alias":"t1"}],"group_by":[{"kind":"column","table":"t1","column":"Country"}]},"alias":"t"}],"where":{"kind":"binary","op":"\u003e","left":{"kind":"column","table":"t","column":"n"},"right":{"kind":"literal","type":"integer","value":1}}}`},
		{"cte",
			"WITH big AS (SELECT name, capacity FROM stadium WHERE capacity > 1000) SELECT name FROM big ORDER BY capacity DESC",
			`{"with":[{"name":"big","query":{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"},{"expr":{"kind":"column","table":"t1","column":"Capacity"},"alias":"Capacity"}],"from":[{"table":"stadium","alias":"t1"}],"where":{"kind":"binary","op":"\u003e","left":{"kind":"column","table":"t1","column":"Capacity"},"right":{"kind":"literal","type":"integer","value":1000}}}}],"select":[{"expr":{"kind":"column","table":"t2","column":"Name"},"alias":"Name"}],"from":[{"table":"big","alias":"t2"}],"order_by":[{"expr":{"kind":"column","table":"t2","column":"Capacity"},"direction":"desc"}]}`},
		{"union",
			"SELECT name FROM stadium UNION SELECT name FROM singer",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"stadium","alias":"t1"}],"set_ops":[{"op":"union","query":{"select":[{"expr":{"kind":"column","table":"t2","column":"Name"},"alias":"Name"}],"from":[{"table":"singer","alias":"t2"}]}}]}`},
		{"set ops left to right",
			"SELECT name FROM stadium UNION SELECT name FROM singer INTERSECT SELECT concert_name FROM concert ORDER BY name",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"stadium","alias":"t1"}],"set_ops":[{"op":"union","query":{"select":[{"expr":{"kind":"column","table":"t2","column":"Name"},"alias":"Name"}],"from":[{"table":"singer","alias":"t2"}]}},{"op":"intersect","query":{"select":[{"expr":{"kind":"column","table":"t3","column":"concert_Name"},"alias":"concert_Name"}],"from":[{"table":"concert","alias":"t3"}]}}],"order_by":[{"expr":{"kind":"column","column":"Name"},"nulls":"first"}]}`},
		{"case",
			"SELECT CASE WHEN age < 30 THEN 'young' ELSE 'old' END AS band FROM singer",
			`{"select":[{"expr":{"kind":"case","whens":[{"when":{"kind":"binary","op":"\u003c","left":{"kind":"column","table":"t1","column":"Age"},"right":{"kind":"literal","type":"integer","value":30}},"then":{"kind":"literal","type":"string","value":"young"}}],"else":{"kind":"literal","type":"string","value":"old"}},"alias":"band"}],"from":[{"table":"singer","alias":"t1"}]}`},
		{"case operand",
			"SELECT CASE country WHEN 'France' THEN 1 ELSE 0 END AS fr FROM singer",
			`{"select":[{"expr":{"kind":"case","operand":{"kind":"column","table":"t1","column":"Country"},"whens":[{"when":{"kind":"literal","type":"string","value":"France"},"then":{"kind":"literal","type":"integer","value":1}}],"else":{"kind":"literal","type":"integer","value":0}},"alias":"fr"}],"from":[{"table":"singer","alias":"t1"}]}`},
		{"cast",
			"SELECT CAST(age AS REAL), CAST(age AS TEXT), CAST(name AS INTEGER) FROM singer",
			`{"select":[{"expr":{"kind":"cast","expr":{"kind":"column","table":"t1","column":"Age"},"type":"float"},"alias":"expr_1"},{"expr":{"kind":"cast","expr":{"kind":"column","table":"t1","column":"Age"},"type":"text"},"alias":"expr_2"},{"expr":{"kind":"cast","expr":{"kind":"column","table":"t1","column":"Name"},"type":"integer"},"alias":"expr_3"}],"from":[{"table":"singer","alias":"t1"}]}`},
		{"between",
			"SELECT name FROM singer WHERE age BETWEEN 20 AND 30 AND age NOT BETWEEN 25 AND 26",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"singer","alias":"t1"}],"where":{"kind":"binary","op":"and","left":{"kind":"between","expr":{"kind":"column","table":"t1","column":"Age"},"low":{"kind":"literal","type":"integer","value":20},"high":{"kind":"literal","type":"integer","value":30}},"right":{"kind":"between","expr":{"kind":"column","table":"t1","column":"Age"},"low":{"kind":"literal","type":"integer","value":25},"high":{"kind":"literal","type":"integer","value":26},"negated":true}}}`},
		{"like sqlite",
			"SELECT name FROM singer WHERE name LIKE '%a\\b%' AND country NOT LIKE 'F%'",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"singer","alias":"t1"}],"where":{"kind":"binary","op":"and","left":{"kind":"like","expr":{"kind":"column","table":"t1","column":"Name"},"pattern":{"kind":"literal","type":"string","value":"%a\\\\b%"},"case_insensitive":true},"right":{"kind":"like","expr":{"kind":"column","table":"t1","column":"Country"},"pattern":{"kind":"literal","type":"string","value":"F%"},"case_insensitive":true,"negated":true}}}`},
		{"is null",
			"SELECT name FROM singer WHERE country IS NULL OR age IS NOT NULL",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"singer","alias":"t1"}],"where":{"kind":"binary","op":"or","left":{"kind":"is_null","expr":{"kind":"column","table":"t1","column":"Country"}},"right":{"kind":"is_null","expr":{"kind":"column","table":"t1","column":"Age"},"negated":true}}}`},
		{"count distinct",
			"SELECT count(DISTINCT country), count(*), count(1) FROM singer",
			`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[{"kind":"column","table":"t1","column":"Country"}],"distinct":true},"alias":"count_country"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"count"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"count_2"}],"from":[{"table":"singer","alias":"t1"}]}`},
		{"window",
			"SELECT name, rank() OVER (PARTITION BY country ORDER BY age DESC) AS r FROM singer",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"},{"expr":{"kind":"window","name":"RANK","args":[],"partition_by":[{"kind":"column","table":"t1","column":"Country"}],"order_by":[{"expr":{"kind":"column","table":"t1","column":"Age"},"direction":"desc"}]},"alias":"r"}],"from":[{"table":"singer","alias":"t1"}]}`},
		{"integer division",
			"SELECT capacity / average FROM stadium",
			`{"select":[{"expr":{"kind":"binary","op":"div","left":{"kind":"column","table":"t1","column":"Capacity"},"right":{"kind":"column","table":"t1","column":"Average"}},"alias":"expr_1"}],"from":[{"table":"stadium","alias":"t1"}]}`},
		{"real division",
			"SELECT CAST(capacity AS REAL) / average, capacity / 2.0 FROM stadium",
			`{"select":[{"expr":{"kind":"binary","op":"/","left":{"kind":"cast","expr":{"kind":"column","table":"t1","column":"Capacity"},"type":"float"},"right":{"kind":"column","table":"t1","column":"Average"}},"alias":"expr_1"},{"expr":{"kind":"binary","op":"/","left":{"kind":"column","table":"t1","column":"Capacity"},"right":{"kind":"literal","type":"decimal","value":"2.0"}},"alias":"expr_2"}],"from":[{"table":"stadium","alias":"t1"}]}`},
		{"arithmetic",
			"SELECT capacity * 2 + average - 1, capacity % 7, -capacity FROM stadium",
			`{"select":[{"expr":{"kind":"binary","op":"-","left":{"kind":"binary","op":"+","left":{"kind":"binary","op":"*","left":{"kind":"column","table":"t1","column":"Capacity"},"right":{"kind":"literal","type":"integer","value":2}},"right":{"kind":"column","table":"t1","column":"Average"}},"right":{"kind":"literal","type":"integer","value":1}},"alias":"expr_1"},{"expr":{"kind":"binary","op":"%","left":{"kind":"column","table":"t1","column":"Capacity"},"right":{"kind":"literal","type":"integer","value":7}},"alias":"expr_2"},{"expr":{"kind":"unary","op":"-","expr":{"kind":"column","table":"t1","column":"Capacity"}},"alias":"expr_3"}],"from":[{"table":"stadium","alias":"t1"}]}`},
		{"strftime compared",
			"SELECT count(*) FROM invoice WHERE strftime('%Y', invoicedate) = '2021' AND strftime('%m', duedate) BETWEEN '01' AND '06'",
			`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"count"}],"from":[{"table":"invoice","alias":"t1"}],"where":{"kind":"binary","op":"and","left":{"kind":"binary","op":"=","left":{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","type":"string","value":"year"},{"kind":"column","table":"t1","column":"InvoiceDate"}]},"right":{"kind":"literal","type":"integer","value":2021}},"right":{"kind":"between","expr":{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","type":"string","value":"month"},{"kind":"column","table":"t1","column":"DueDate"}]},"low":{"kind":"literal","type":"integer","value":1},"high":{"kind":"literal","type":"integer","value":6}}}}`},
		{"strftime output",
			"SELECT strftime('%Y', invoicedate) AS y, count(*) FROM invoice GROUP BY y",
			`{"select":[{"expr":{"kind":"cast","expr":{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","type":"string","value":"year"},{"kind":"column","table":"t1","column":"InvoiceDate"}]},"type":"text"},"alias":"y"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"count"}],"from":[{"table":"invoice","alias":"t1"}],"group_by":[{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","type":"string","value":"year"},{"kind":"column","table":"t1","column":"InvoiceDate"}]}]}`},
		{"strftime arithmetic",
			"SELECT strftime('%Y', invoicedate) - strftime('%Y', duedate) FROM invoice",
			`{"select":[{"expr":{"kind":"binary","op":"-","left":{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","type":"string","value":"year"},{"kind":"column","table":"t1","column":"InvoiceDate"}]},"right":{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","type":"string","value":"year"},{"kind":"column","table":"t1","column":"DueDate"}]}},"alias":"expr_1"}],"from":[{"table":"invoice","alias":"t1"}]}`},
		{"iif",
			"SELECT iif(age > 30, 'old', 'young') FROM singer",
			`{"select":[{"expr":{"kind":"case","whens":[{"when":{"kind":"binary","op":"\u003e","left":{"kind":"column","table":"t1","column":"Age"},"right":{"kind":"literal","type":"integer","value":30}},"then":{"kind":"literal","type":"string","value":"old"}}],"else":{"kind":"literal","type":"string","value":"young"}},"alias":"iif"}],"from":[{"table":"singer","alias":"t1"}]}`},
		{"ifnull concat",
			"SELECT ifnull(country, 'none') || ' ' || name || age FROM singer",
			`{"select":[{"expr":{"kind":"func","name":"CONCAT","args":[{"kind":"func","name":"COALESCE","args":[{"kind":"column","table":"t1","column":"Country"},{"kind":"literal","type":"string","value":"none"}]},{"kind":"literal","type":"string","value":" "},{"kind":"column","table":"t1","column":"Name"},{"kind":"cast","expr":{"kind":"column","table":"t1","column":"Age"},"type":"text"}]},"alias":"expr_1"}],"from":[{"table":"singer","alias":"t1"}]}`},
		{"date functions",
			"SELECT date(invoicedate), datetime(duedate) FROM invoice",
			`{"select":[{"expr":{"kind":"cast","expr":{"kind":"column","table":"t1","column":"InvoiceDate"},"type":"date"},"alias":"date_invoicedate"},{"expr":{"kind":"cast","expr":{"kind":"column","table":"t1","column":"DueDate"},"type":"timestamp"},"alias":"datetime_duedate"}],"from":[{"table":"invoice","alias":"t1"}]}`},
		{"julianday difference",
			"SELECT julianday(duedate) - julianday('2021-01-01') FROM invoice",
			`{"select":[{"expr":{"kind":"func","name":"DATE_DIFF_DAYS","args":[{"kind":"column","table":"t1","column":"DueDate"},{"kind":"literal","type":"string","value":"2021-01-01"}]},"alias":"expr_1"}],"from":[{"table":"invoice","alias":"t1"}]}`},
		{"julianday difference of times",
			"SELECT (julianday(invoicedate) - julianday(duedate)) * 24 FROM invoice",
			`{"select":[{"expr":{"kind":"binary","op":"*","left":{"kind":"binary","op":"/","left":{"kind":"func","name":"ELAPSED_SECONDS","args":[{"kind":"column","table":"t1","column":"InvoiceDate"},{"kind":"column","table":"t1","column":"DueDate"}]},"right":{"kind":"literal","type":"decimal","value":"86400.0"}},"right":{"kind":"literal","type":"integer","value":24}},"alias":"expr_1"}],"from":[{"table":"invoice","alias":"t1"}]}`},
		{"the plan's own time functions",
			"SELECT elapsed_seconds(invoicedate, duedate), date_diff_days(duedate, invoicedate), period_label('Month', invoicedate) FROM invoice",
			`{"select":[{"expr":{"kind":"func","name":"ELAPSED_SECONDS","args":[{"kind":"column","table":"t1","column":"InvoiceDate"},{"kind":"column","table":"t1","column":"DueDate"}]},"alias":"elapsed_seconds"},{"expr":{"kind":"func","name":"DATE_DIFF_DAYS","args":[{"kind":"column","table":"t1","column":"DueDate"},{"kind":"column","table":"t1","column":"InvoiceDate"}]},"alias":"date_diff_days"},{"expr":{"kind":"func","name":"PERIOD_LABEL","args":[{"kind":"literal","type":"string","value":"month"},{"kind":"column","table":"t1","column":"InvoiceDate"}]},"alias":"period_label"}],"from":[{"table":"invoice","alias":"t1"}]}`},
		{"julianday order",
			"SELECT id FROM invoice ORDER BY julianday(duedate) DESC LIMIT 1",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Id"},"alias":"Id"}],"from":[{"table":"invoice","alias":"t1"}],"order_by":[{"expr":{"kind":"column","table":"t1","column":"DueDate"},"direction":"desc"}],"limit":1}`},
		{"text functions",
			"SELECT upper(name), lower(name), length(name), substr(name, 2, 3), replace(name, 'a', 'b'), trim(name), abs(age), round(age / 3.0, 2) FROM singer",
			`{"select":[{"expr":{"kind":"func","name":"UPPER","args":[{"kind":"column","table":"t1","column":"Name"}]},"alias":"upper_name"},{"expr":{"kind":"func","name":"LOWER","args":[{"kind":"column","table":"t1","column":"Name"}]},"alias":"lower_name"},{"expr":{"kind":"func","name":"LENGTH","args":[{"kind":"column","table":"t1","column":"Name"}]},"alias":"length_name"},{"expr":{"kind":"func","name":"SUBSTR","args":[{"kind":"column","table":"t1","column":"Name"},{"kind":"literal","type":"integer","value":2},{"kind":"literal","type":"integer","value":3}]},"alias":"substr"},{"expr":{"kind":"func","name":"REPLACE","args":[{"kind":"column","table":"t1","column":"Name"},{"kind":"literal","type":"string","value":"a"},{"kind":"literal","type":"string","value":"b"}]},"alias":"replace"},{"expr":{"kind":"func","name":"TRIM","args":[{"kind":"column","table":"t1","column":"Name"}]},"alias":"trim_name"},{"expr":{"kind":"func","name":"ABS","args":[{"kind":"column","table":"t1","column":"Age"}]},"alias":"abs_age"},{"expr":{"kind":"func","name":"ROUND","args":[{"kind":"binary","op":"/","left":{"kind":"column","table":"t1","column":"Age"},"right":{"kind":"literal","type":"decimal","value":"3.0"}},{"kind":"literal","type":"integer","value":2}]},"alias":"round"}],"from":[{"table":"singer","alias":"t1"}]}`},
		{"nullif coalesce",
			"SELECT nullif(age, 0), coalesce(country, name, 'x') FROM singer",
			`{"select":[{"expr":{"kind":"func","name":"NULLIF","args":[{"kind":"column","table":"t1","column":"Age"},{"kind":"literal","type":"integer","value":0}]},"alias":"expr_1"},{"expr":{"kind":"func","name":"COALESCE","args":[{"kind":"column","table":"t1","column":"Country"},{"kind":"column","table":"t1","column":"Name"},{"kind":"literal","type":"string","value":"x"}]},"alias":"expr_2"}],"from":[{"table":"singer","alias":"t1"}]}`},
		{"boolean sum",
			"SELECT sum(country = 'France') FROM singer",
			`{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"case","whens":[{"when":{"kind":"binary","op":"=","left":{"kind":"column","table":"t1","column":"Country"},"right":{"kind":"literal","type":"string","value":"France"}},"then":{"kind":"literal","type":"integer","value":1}},{"when":{"kind":"unary","op":"not","expr":{"kind":"binary","op":"=","left":{"kind":"column","table":"t1","column":"Country"},"right":{"kind":"literal","type":"string","value":"France"}}},"then":{"kind":"literal","type":"integer","value":0}}]}]},"alias":"sum"}],"from":[{"table":"singer","alias":"t1"}]}`},
		{"text to number",
			"SELECT sum(year) FROM concert",
			`{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"cast","expr":{"kind":"column","table":"t1","column":"Year"},"type":"decimal"}]},"alias":"sum_year"}],"from":[{"table":"concert","alias":"t1"}]}`},
		{"number and text columns",
			"SELECT T1.name FROM stadium AS T1 JOIN concert AS T2 ON T1.stadium_id = T2.stadium_id",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"stadium","alias":"t1"},{"table":"concert","alias":"t2"}],"joins":[{"type":"inner","left":"t1","right":"t2","on":null,"condition":{"kind":"binary","op":"=","left":{"kind":"column","table":"t1","column":"Stadium_ID"},"right":{"kind":"cast","expr":{"kind":"column","table":"t2","column":"Stadium_ID"},"type":"decimal"}}}]}`},
		{"number literal as text",
			"SELECT concert_name FROM concert WHERE year = 2014",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"concert_Name"},"alias":"concert_Name"}],"from":[{"table":"concert","alias":"t1"}],"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"t1","column":"Year"},"right":{"kind":"literal","type":"string","value":"2014"}}}`},
		{"text literal as number",
			"SELECT name FROM customer WHERE score > '3.5' AND id = '7'",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"customer","alias":"t1"}],"where":{"kind":"binary","op":"and","left":{"kind":"binary","op":"\u003e","left":{"kind":"column","table":"t1","column":"Score"},"right":{"kind":"literal","type":"decimal","value":"3.5"}},"right":{"kind":"binary","op":"=","left":{"kind":"column","table":"t1","column":"Id"},"right":{"kind":"literal","type":"integer","value":7}}}}`},
		{"date literal",
			"SELECT id FROM invoice WHERE duedate >= '2021-06-01' AND invoicedate < '2021-06'",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Id"},"alias":"Id"}],"from":[{"table":"invoice","alias":"t1"}],"where":{"kind":"binary","op":"and","left":{"kind":"binary","op":"\u003e=","left":{"kind":"column","table":"t1","column":"DueDate"},"right":{"kind":"literal","type":"string","value":"2021-06-01"}},"right":{"kind":"binary","op":"\u003c","left":{"kind":"cast","expr":{"kind":"column","table":"t1","column":"InvoiceDate"},"type":"text"},"right":{"kind":"literal","type":"string","value":"2021-06"}}}}`},
		{"bare column determined",
			"SELECT T2.name, count(*) FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id GROUP BY T1.stadium_id",
			`{"select":[{"expr":{"kind":"column","table":"t2","column":"Name"},"alias":"Name"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"count"}],"from":[{"table":"concert","alias":"t1"},{"table":"stadium","alias":"t2"}],"joins":[{"type":"inner","left":"t1","right":"t2","on":null,"condition":{"kind":"binary","op":"=","left":{"kind":"cast","expr":{"kind":"column","table":"t1","column":"Stadium_ID"},"type":"decimal"},"right":{"kind":"column","table":"t2","column":"Stadium_ID"}}}],"group_by":[{"kind":"column","table":"t1","column":"Stadium_ID"},{"kind":"column","table":"t2","column":"Stadium_ID"}]}`},
		{"alias in where",
			"SELECT name AS n FROM singer WHERE n LIKE 'A%'",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"n"}],"from":[{"table":"singer","alias":"t1"}],"where":{"kind":"like","expr":{"kind":"column","table":"t1","column":"Name"},"pattern":{"kind":"literal","type":"string","value":"A%"},"case_insensitive":true}}`},
		{"group by position",
			"SELECT country, count(*) FROM singer GROUP BY 1",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Country"},"alias":"Country"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"count"}],"from":[{"table":"singer","alias":"t1"}],"group_by":[{"kind":"column","table":"t1","column":"Country"}]}`},
		{"using",
			"SELECT * FROM concert JOIN singer_in_concert USING (concert_id)",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"concert_ID"},"alias":"concert_ID"},{"expr":{"kind":"column","table":"t1","column":"concert_Name"},"alias":"concert_Name"},{"expr":{"kind":"column","table":"t1","column":"Stadium_ID"},"alias":"Stadium_ID"},{"expr":{"kind":"column","table":"t1","column":"Year"},"alias":"Year"},{"expr":{"kind":"column","table":"t2","column":"Singer_ID"},"alias":"Singer_ID"}],"from":[{"table":"concert","alias":"t1"},{"table":"singer_in_concert","alias":"t2"}],"joins":[{"type":"inner","left":"t1","right":"t2","on":[{"left_column":"concert_ID","right_column":"concert_ID"}]}]}`},
		{"shadowed alias",
			"SELECT T1.name FROM singer AS T1 WHERE T1.age > (SELECT avg(T1.age) FROM singer AS T1 WHERE T1.country = 'France')",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"}],"from":[{"table":"singer","alias":"t1"}],"where":{"kind":"binary","op":"\u003e","left":{"kind":"column","table":"t1","column":"Age"},"right":{"kind":"subquery","query":{"select":[{"expr":{"kind":"func","name":"AVG","args":[{"kind":"column","table":"t1_1","column":"Age"}]},"alias":"avg_age"}],"from":[{"table":"singer","alias":"t1_1"}],"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"t1_1","column":"Country"},"right":{"kind":"literal","type":"string","value":"France"}}}}}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkLift(t, c, DialectSQLite) })
	}
}

func checkLift(t *testing.T, c liftCase, dialect string) {
	t.Helper()
	q, err := Lift(c.sql, dialect, cat)
	if err != nil {
		t.Fatalf("Lift(%q): %v", c.sql, err)
	}
	want, err := planast.Decode([]byte(c.want), planast.Limits{})
	if err != nil {
		t.Fatalf("bad expected plan: %v", err)
	}
	if got, w := string(q.Canonical()), string(want.Canonical()); got != w {
		t.Errorf("Lift(%q)\n got %s\nwant %s", c.sql, got, w)
	}
	if _, err := validate.Plan(q, cat, validate.Options{}); err != nil {
		t.Errorf("the lifted plan does not validate: %v", err)
	}
}

// TestLiftRefuses checks that constructs the plan language cannot express
// are refused with *Unsupported naming them, never approximated.
func TestLiftRefuses(t *testing.T) {
	cases := []struct{ name, sql, construct string }{
		{"group_concat", "SELECT group_concat(name) FROM singer", "function GROUP_CONCAT"},
		{"current time of day", "SELECT id FROM invoice WHERE CURRENT_TIME > '10:00'", "the current time of day"},
		{"recursive", "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r", "WITH RECURSIVE"},
		{"bare column", "SELECT name, count(*) FROM singer GROUP BY country", "a column neither grouped nor aggregated"},
		{"bare column max", "SELECT name, max(age) FROM singer", "next to MIN/MAX"},
		{"scalar max", "SELECT max(age, 3) FROM singer", "scalar MAX"},
		{"cast as date", "SELECT CAST(duedate AS DATE) FROM invoice", "CAST AS DATE"},
		{"substr negative length", "SELECT substr(name, 2, -1) FROM singer", "SUBSTR with a negative length"},
		{"left negative", "SELECT left(name, -1) FROM singer", "LEFT with a negative count"},
		{"strftime other format", "SELECT strftime('%Y/%m', invoicedate) FROM invoice", "strftime format \"%Y/%m\""},
		{"duckdb strftime other format", "SELECT strftime(invoicedate, '%d.%m.%Y') FROM invoice", "strftime format \"%d.%m.%Y\""},
		{"to_char other format", "SELECT to_char(invoicedate, 'Mon YYYY') FROM invoice", "to_char format \"Mon YYYY\""},
		{"null-safe is", "SELECT name FROM singer WHERE age IS 3", "IS [NOT] DISTINCT FROM"},
		{"window frame", "SELECT sum(age) OVER (ORDER BY age ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM singer", "a window frame"},
		{"strftime format", "SELECT strftime('%V', invoicedate) FROM invoice", "strftime format \"%V\""},
		{"strftime hour as text", "SELECT strftime('%H', invoicedate) FROM invoice", "strftime('%H') used as text"},
		{"date_part on SQLite", "SELECT date_part('hour', invoicedate) FROM invoice", "date_part on SQLite, which has none"},
		{"extract on SQLite", "SELECT EXTRACT(hour FROM invoicedate) FROM invoice", "on SQLite, which has none"},
		{"strftime month as text", "SELECT strftime('%m', invoicedate) FROM invoice", "strftime('%m') used as text"},
		{"strftime vs number", "SELECT id FROM invoice WHERE strftime('%Y', invoicedate) = 2021", "strftime('%Y') text"},
		{"glob", "SELECT name FROM singer WHERE name GLOB 'A*'", "GLOB"},
		{"date vs number text", "SELECT id FROM invoice WHERE duedate > '2021'", "a comparison of a date column with a number"},
		{"number vs non-number text", "SELECT name FROM singer WHERE age = 'old'", "a comparison of a number column with text"},
		{"distinct order by hidden", "SELECT DISTINCT country FROM singer ORDER BY age", "with DISTINCT"},
		{"like computed pattern", "SELECT name FROM singer WHERE name LIKE country", "LIKE with a pattern"},
		{"julianday value", "SELECT julianday(duedate) FROM invoice", "JULIANDAY"},
		{"period label of another unit", "SELECT period_label('hour', invoicedate) FROM invoice", "PERIOD_LABEL with a unit"},
		{"natural join", "SELECT name FROM singer NATURAL JOIN stadium", "NATURAL JOIN"},
		{"any subquery", "SELECT name FROM singer WHERE age > ALL (SELECT age FROM singer)", "ALL subquery"},
		{"filter on a scalar", "SELECT upper(name) FILTER (WHERE age > 3) FROM singer", "FILTER on UPPER"},
		{"greatest", "SELECT greatest(age, 3) FROM singer", "GREATEST/LEAST"},
		{"values", "SELECT * FROM (VALUES (1)) AS v(x)", "VALUES"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, err := Lift(c.sql, DialectSQLite, cat)
			var un *Unsupported
			if !errors.As(err, &un) {
				t.Fatalf("Lift(%q) = %v, %v; want *Unsupported", c.sql, q, err)
			}
			if !strings.Contains(un.Construct, c.construct) {
				t.Errorf("construct %q does not name %q", un.Construct, c.construct)
			}
			if un.Pos >= len(c.sql) {
				t.Errorf("position %d is outside the SQL", un.Pos)
			}
		})
	}
}

// The current date and time, substring positions and a SELECT without
// FROM lift into CURRENT_DATE/CURRENT_TIMESTAMP, POSITION and "from": [].
func TestLiftNowPositionNoFrom(t *testing.T) {
	cases := []struct{ sql, want string }{
		{"SELECT name FROM singer WHERE instr(name, 'a') > 0", `"name":"POSITION"`},
		{"SELECT id FROM invoice WHERE invoicedate < CURRENT_TIMESTAMP", `"name":"CURRENT_TIMESTAMP"`},
		{"SELECT id FROM invoice WHERE duedate < CURRENT_DATE", `"name":"CURRENT_DATE"`},
		{"SELECT strftime('%Y', 'now') - strftime('%Y', duedate) FROM invoice", `"name":"CURRENT_TIMESTAMP"`},
		{"SELECT (SELECT count(*) FROM singer) * 100 / (SELECT count(*) FROM invoice)", `"from":[]`},
	}
	for _, c := range cases {
		q, err := Lift(c.sql, DialectSQLite, cat)
		if err != nil {
			t.Fatalf("Lift(%q): %v", c.sql, err)
		}
		b := string(q.Canonical())
		if c.want == `"from":[]` {
			if len(q.From) != 0 {
				t.Errorf("%q: from = %v", c.sql, q.From)
			}
		} else if !strings.Contains(b, c.want) {
			t.Errorf("%q lifted to %s, want %s", c.sql, b, c.want)
		}
		if _, err := validate.Plan(q, cat, validate.Options{}); err != nil {
			t.Errorf("%q: the lifted plan does not validate: %v", c.sql, err)
		}
	}
}

// Period labels, substrings from the end and LEFT/RIGHT lift from the
// forms SQLite, DuckDB and PostgreSQL spell them in.
func TestLiftPeriodLabelSubstr(t *testing.T) {
	cases := []struct{ dialect, sql, want string }{
		{DialectSQLite, "SELECT strftime('%Y-%m', invoicedate) AS m, count(*) FROM invoice GROUP BY m", `{"kind":"func","name":"PERIOD_LABEL","args":[{"kind":"literal","type":"string","value":"month"},{"kind":"column","table":"t1","column":"InvoiceDate"}]}`},
		{DialectSQLite, "SELECT id FROM invoice WHERE strftime('%Y-%m-%d', invoicedate) = '2021-01-01'", `"value":"day"`},
		{DialectSQLite, "SELECT strftime(invoicedate, '%Y-%m') FROM invoice", `"value":"month"`},
		{DialectSQLite, "SELECT strftime(invoicedate, '%Y') FROM invoice", `"name":"PERIOD_LABEL","args":[{"kind":"literal","type":"string","value":"year"}`},
		{DialectPostgres, "SELECT to_char(invoicedate, 'YYYY-MM') FROM invoice", `"value":"month"`},
		{DialectPostgres, "SELECT to_char(invoicedate, 'YYYY') FROM invoice", `"value":"year"`},
		{DialectSQLite, "SELECT substr(name, -2), substr(name, -3, 2) FROM singer", `{"kind":"func","name":"SUBSTR","args":[{"kind":"column","table":"t1","column":"Name"},{"kind":"literal","type":"integer","value":-2}]}`},
		{DialectSQLite, "SELECT left(name, 2), right(name, 3) FROM singer", `{"kind":"func","name":"RIGHT","args":[{"kind":"column","table":"t1","column":"Name"},{"kind":"literal","type":"integer","value":3}]}`},
		{DialectPostgres, "SELECT left(name, 2) FROM singer", `"name":"LEFT"`},
	}
	for _, c := range cases {
		q, err := Lift(c.sql, c.dialect, cat)
		if err != nil {
			t.Fatalf("Lift(%q): %v", c.sql, err)
		}
		if b := string(q.Canonical()); !strings.Contains(b, c.want) {
			t.Errorf("%q lifted to %s, want %s", c.sql, b, c.want)
		}
		if _, err := validate.Plan(q, cat, validate.Options{}); err != nil {
			t.Errorf("%q: the lifted plan does not validate: %v", c.sql, err)
		}
	}
	// PostgreSQL's substr counts a start below 1 differently: refused
	var un *Unsupported
	if _, err := Lift("SELECT substr(name, -2) FROM singer", DialectPostgres, cat); !errors.As(err, &un) {
		t.Errorf("postgres substr(name, -2): %v, want *Unsupported", err)
	}
}

// A date compared with a timestamp is its midnight in SQL; the plan's date
// would cover its whole day, so the lift makes the midnight explicit.
func TestLiftDateMeetsTimestamp(t *testing.T) {
	for _, c := range []struct{ dialect, sql, want string }{
		{DialectPostgres, "SELECT id FROM invoice WHERE invoicedate <= DATE '2021-03-31'", `"right":{"kind":"cast","expr":{"kind":"cast","expr":{"kind":"literal","type":"string","value":"2021-03-31"},"type":"date"},"type":"timestamp"}`},
		{DialectPostgres, "SELECT id FROM invoice WHERE invoicedate BETWEEN '2021-03-01' AND '2021-03-31'", `"high":{"kind":"literal","type":"timestamp","value":"2021-03-31 00:00:00"}`},
		{DialectSQLite, "SELECT id FROM invoice WHERE invoicedate <= duedate", `{"kind":"cast","expr":{"kind":"column","table":"t1","column":"DueDate"},"type":"timestamp"}`},
	} {
		q, err := Lift(c.sql, c.dialect, cat)
		if err != nil {
			t.Fatalf("Lift(%q): %v", c.sql, err)
		}
		if b := string(q.Canonical()); !strings.Contains(b, c.want) {
			t.Errorf("%q lifted to %s, want %s", c.sql, b, c.want)
		}
	}
}

// Top-N with ties lifts from PostgreSQL's FETCH FIRST n ROWS WITH TIES,
// and the nested form filtering a rank computed in a derived table lifts as
// it is written.
func TestLiftTies(t *testing.T) {
	q, err := Lift("SELECT name FROM singer ORDER BY age DESC FETCH FIRST 2 ROWS WITH TIES", DialectPostgres, cat)
	if err != nil {
		t.Fatal(err)
	}
	if !q.WithTies || q.Limit == nil || *q.Limit != 2 {
		t.Errorf("lifted %s, want limit 2 with_ties", q.Canonical())
	}
	if _, err := validate.Plan(q, cat, validate.Options{}); err != nil {
		t.Errorf("the lifted plan does not validate: %v", err)
	}
	for _, d := range []string{DialectSQLite, DialectPostgres} {
		q, err := Lift("SELECT name FROM (SELECT name, RANK() OVER (ORDER BY age DESC) AS r FROM singer) AS x WHERE r <= 3", d, cat)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		if _, err := validate.Plan(q, cat, validate.Options{}); err != nil {
			t.Errorf("%s: the lifted plan does not validate: %v", d, err)
		}
	}
}

// DuckDB's QUALIFY on an output alias lifts as the nested form it means.
func TestLiftQualify(t *testing.T) {
	q, err := Lift("SELECT name, RANK() OVER (ORDER BY age DESC) AS r FROM singer QUALIFY r <= 2 ORDER BY r", DialectSQLite, cat)
	if err != nil {
		t.Fatal(err)
	}
	if len(q.From) != 1 || q.From[0].Subquery == nil || q.Where == nil {
		t.Errorf("lifted %s, want a filter over a derived table", q.Canonical())
	}
	if _, err := validate.Plan(q, cat, validate.Options{}); err != nil {
		t.Errorf("the lifted plan does not validate: %v", err)
	}
	// a window in the condition itself is refused, not lifted differently
	if _, err := Lift("SELECT name FROM singer QUALIFY RANK() OVER (ORDER BY age DESC) <= 2", DialectSQLite, cat); err == nil {
		t.Error("QUALIFY over a window expression lifted")
	}
}
