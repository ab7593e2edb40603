SELECT "a"."Name" AS "Name"
FROM "Artist" AS "a"
ORDER BY "Name" ASC NULLS LAST
LIMIT 3
