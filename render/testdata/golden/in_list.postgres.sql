SELECT "t"."Name" AS "Name"
FROM "Track" AS "t"
WHERE (("t"."GenreId" IN (1, 3)) AND ("t"."Name" NOT IN ('Walk On Water')))
ORDER BY 1 ASC NULLS LAST
LIMIT 1000
