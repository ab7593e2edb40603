SELECT "cu"."LastName" AS "LastName", (SELECT SUM("i"."Total") AS "s"
FROM "Invoice" AS "i"
WHERE ("i"."CustomerId" = "cu"."CustomerId")) AS "spent"
FROM "Customer" AS "cu"
WHERE (("cu"."CustomerId" IS NOT NULL AND "cu"."CustomerId" IN (SELECT "i"."CustomerId" AS "key"
FROM "Invoice" AS "i"
WHERE ("i"."CustomerId" IS NOT NULL))) AND (("cu"."CustomerId" IS NULL OR "cu"."CustomerId" NOT IN (SELECT "i"."CustomerId" AS "key"
FROM "Invoice" AS "i"
WHERE (("i"."Total" > 100) AND ("i"."CustomerId" IS NOT NULL)))) AND ("cu"."CustomerId" IN (SELECT "i2"."CustomerId" AS "CustomerId"
FROM "Invoice" AS "i2"
WHERE ("i2"."Total" > 1.5)))))
ORDER BY "spent" DESC NULLS LAST, 1 ASC NULLS LAST
LIMIT 1000
