SELECT * FROM (SELECT "t"."Name" AS "Name"
FROM "Track" AS "t"
WHERE (("t"."GenreId" IN (1, 3)) AND ("t"."Name" NOT IN ('Walk On Water')))
LIMIT 1000) AS "first_rows"
ORDER BY 1 ASC NULLS LAST
