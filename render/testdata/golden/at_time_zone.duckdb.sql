SELECT * FROM (SELECT "i"."InvoiceId" AS "InvoiceId", timezone('Europe/London', timezone('UTC', CAST("i"."InvoiceDate" AS TIMESTAMP))) AS "london", (CASE WHEN ("cu"."Country" IN (SELECT name FROM pg_timezone_names())) THEN timezone("cu"."Country", timezone('UTC', CAST("i"."InvoiceDate" AS TIMESTAMP))) END) AS "by_column"
FROM "Invoice" AS "i"
INNER JOIN "Customer" AS "cu" ON "i"."CustomerId" = "cu"."CustomerId"
WHERE (CAST(EXTRACT(HOUR FROM CAST(timezone('America/New_York', timezone('UTC', CAST("i"."InvoiceDate" AS TIMESTAMP))) AS TIMESTAMP)) AS BIGINT) < 22)
LIMIT 1000) AS "first_rows"
ORDER BY 1 ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST
