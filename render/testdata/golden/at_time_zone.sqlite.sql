SELECT * FROM (SELECT "i"."InvoiceId" AS "InvoiceId", tz_local_time(strftime('%Y-%m-%d %H:%M:%f', "i"."InvoiceDate"), 'Europe/London') AS "london", tz_local_time(strftime('%Y-%m-%d %H:%M:%f', "i"."InvoiceDate"), "cu"."Country") AS "by_column"
FROM "Invoice" AS "i"
INNER JOIN "Customer" AS "cu" ON "i"."CustomerId" = "cu"."CustomerId"
WHERE (CAST(strftime('%H', tz_local_time(strftime('%Y-%m-%d %H:%M:%f', "i"."InvoiceDate"), 'America/New_York')) AS INTEGER) < 22)
LIMIT 1000 OFFSET 0) AS "first_rows"
ORDER BY 1 ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST
