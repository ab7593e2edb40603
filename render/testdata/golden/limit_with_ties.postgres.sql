SELECT "first_name", "last_name", "spent"
FROM (SELECT "first_name", "last_name", "spent", RANK() OVER (ORDER BY "spent" DESC NULLS LAST) AS "tie_rank"
FROM (SELECT "c"."FirstName" AS "first_name", "c"."LastName" AS "last_name", SUM("i"."Total") AS "spent"
FROM "Invoice" AS "i"
INNER JOIN "Customer" AS "c" ON "i"."CustomerId" = "c"."CustomerId"
GROUP BY "c"."CustomerId", "c"."FirstName", "c"."LastName") AS "q") AS "q"
WHERE "tie_rank" <= 3
ORDER BY "spent" DESC NULLS LAST, 1 ASC NULLS LAST, 2 ASC NULLS LAST
LIMIT 1000
