SELECT * FROM (SELECT "i"."InvoiceId" AS "InvoiceId", CAST(DATE_TRUNC('year', CAST("i"."InvoiceDate" AS TIMESTAMP)) AS DATE) AS "t_year", CAST(DATE_TRUNC('quarter', CAST("i"."InvoiceDate" AS TIMESTAMP)) AS DATE) AS "t_quarter", CAST(DATE_TRUNC('month', CAST("i"."InvoiceDate" AS TIMESTAMP)) AS DATE) AS "t_month", CAST(DATE_TRUNC('day', CAST("i"."InvoiceDate" AS TIMESTAMP)) AS DATE) AS "t_day"
FROM "Invoice" AS "i"
WHERE (CAST(DATE_TRUNC('month', CAST("i"."InvoiceDate" AS TIMESTAMP)) AS DATE) >= DATE '2021-01-01')
LIMIT 1000) AS "first_rows"
ORDER BY 1 ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST, 4 ASC NULLS LAST, 5 ASC NULLS LAST
