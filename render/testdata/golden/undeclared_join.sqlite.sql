SELECT "i"."InvoiceId" AS "invoice", "c"."LastName" AS "compatriot"
FROM "Invoice" AS "i"
INNER JOIN "Customer" AS "c" ON "i"."BillingCountry" = "c"."Country"
ORDER BY "invoice" ASC NULLS LAST, 2 ASC NULLS LAST
LIMIT 1000
