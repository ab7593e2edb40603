SELECT "i"."InvoiceId" AS "invoice", "i"."Total" AS "total"
FROM "Invoice" AS "i"
WHERE ((strftime('%Y-%m-%d %H:%M:%f', "i"."InvoiceDate") >= '2021-03-01 00:00:00.000') AND (strftime('%Y-%m-%d %H:%M:%f', "i"."InvoiceDate") < '2022-01-01 00:00:00.000'))
ORDER BY "invoice" ASC NULLS LAST, 2 ASC NULLS LAST
LIMIT 1000
