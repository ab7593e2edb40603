SELECT to_char(CAST("i"."InvoiceDate" AS TIMESTAMP), 'YYYY-MM') AS "month", to_char(CAST("i"."InvoiceDate" AS TIMESTAMP), 'YYYY') AS "year", to_char(CAST("i"."InvoiceDate" AS TIMESTAMP), 'YYYY-"Q"Q') AS "quarter", to_char(CAST("i"."InvoiceDate" AS TIMESTAMP), 'YYYY-MM-DD') AS "day", SUM("i"."Total") AS "revenue"
FROM "Invoice" AS "i"
GROUP BY to_char(CAST("i"."InvoiceDate" AS TIMESTAMP), 'YYYY-MM'), to_char(CAST("i"."InvoiceDate" AS TIMESTAMP), 'YYYY'), to_char(CAST("i"."InvoiceDate" AS TIMESTAMP), 'YYYY-"Q"Q'), to_char(CAST("i"."InvoiceDate" AS TIMESTAMP), 'YYYY-MM-DD')
ORDER BY "month" ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST, 4 ASC NULLS LAST, 5 ASC NULLS LAST
LIMIT 1000
