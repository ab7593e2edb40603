SELECT "ar"."Name" AS "Name", "d"."albums" AS "albums"
FROM "Artist" AS "ar"
LEFT JOIN (SELECT "al"."ArtistId" AS "ArtistId", COUNT(*) AS "albums"
FROM "Album" AS "al"
GROUP BY "al"."ArtistId") AS "d" ON "ar"."ArtistId" = "d"."ArtistId"
WHERE (("d"."albums" IS NULL) OR ("d"."albums" > 0))
ORDER BY 1 ASC NULLS LAST, 2 ASC NULLS LAST
LIMIT 1000
