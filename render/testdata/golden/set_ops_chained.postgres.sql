(((SELECT "a"."Name" AS "name"
FROM "Artist" AS "a"
UNION
SELECT "g"."Name" AS "Name"
FROM "Genre" AS "g")
EXCEPT
SELECT "t"."Name" AS "Name"
FROM "Track" AS "t"
WHERE ("t"."Milliseconds" > 300000))
INTERSECT
SELECT "a2"."Name" AS "Name"
FROM "Artist" AS "a2")
UNION ALL
SELECT "al"."Title" AS "Title"
FROM "Album" AS "al"
WHERE ("al"."AlbumId" = 4)
ORDER BY "name" DESC NULLS FIRST
LIMIT 20
