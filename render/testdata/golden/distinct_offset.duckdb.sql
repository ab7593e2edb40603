SELECT DISTINCT "cu"."Country" AS "Country"
FROM "Customer" AS "cu"
WHERE "cu"."Active"
ORDER BY "Country" ASC NULLS FIRST
LIMIT 2 OFFSET 1
