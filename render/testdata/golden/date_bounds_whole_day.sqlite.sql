SELECT "i"."InvoiceId" AS "invoice", "i"."Total" AS "total"
FROM "Invoice" AS "i"
WHERE (("i"."InvoiceDate" >= '2021-03-01 00:00:00') AND ("i"."InvoiceDate" < '2022-01-01 00:00:00'))
ORDER BY "invoice" ASC NULLS LAST, 2 ASC NULLS LAST
LIMIT 1000
