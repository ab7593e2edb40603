SELECT strftime(CAST("i"."InvoiceDate" AS TIMESTAMP), '%Y-%m') AS "month", strftime(CAST("i"."InvoiceDate" AS TIMESTAMP), '%Y') AS "year", (CASE WHEN isfinite(CAST("i"."InvoiceDate" AS TIMESTAMP)) THEN strftime(CAST("i"."InvoiceDate" AS TIMESTAMP), '%Y') || '-Q' || CAST(quarter(CAST("i"."InvoiceDate" AS TIMESTAMP)) AS VARCHAR) ELSE CAST(CAST("i"."InvoiceDate" AS TIMESTAMP) AS VARCHAR) END) AS "quarter", strftime(CAST("i"."InvoiceDate" AS TIMESTAMP), '%Y-%m-%d') AS "day", SUM("i"."Total") AS "revenue"
FROM "Invoice" AS "i"
GROUP BY strftime(CAST("i"."InvoiceDate" AS TIMESTAMP), '%Y-%m'), strftime(CAST("i"."InvoiceDate" AS TIMESTAMP), '%Y'), 3, strftime(CAST("i"."InvoiceDate" AS TIMESTAMP), '%Y-%m-%d')
ORDER BY "month" ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST, 4 ASC NULLS LAST, 5 ASC NULLS LAST
LIMIT 1000
