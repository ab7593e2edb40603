SELECT * FROM (SELECT "i"."InvoiceId" AS "InvoiceId", ((CAST("i"."InvoiceDate" AS TIMESTAMP) AT TIME ZONE 'UTC') AT TIME ZONE 'Europe/London') AS "london", (CASE WHEN ("cu"."Country" IN (SELECT name FROM pg_catalog.pg_timezone_names)) THEN ((CAST("i"."InvoiceDate" AS TIMESTAMP) AT TIME ZONE 'UTC') AT TIME ZONE "cu"."Country") END) AS "by_column"
FROM "Invoice" AS "i"
INNER JOIN "Customer" AS "cu" ON "i"."CustomerId" = "cu"."CustomerId"
WHERE (CAST(EXTRACT(HOUR FROM CAST(((CAST("i"."InvoiceDate" AS TIMESTAMP) AT TIME ZONE 'UTC') AT TIME ZONE 'America/New_York') AS TIMESTAMP)) AS BIGINT) < 22)
LIMIT 1000) AS "first_rows"
ORDER BY 1 ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST
