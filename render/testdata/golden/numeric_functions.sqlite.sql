SELECT "t"."GenreId" AS "GenreId", ABS(MIN("t"."Milliseconds")) AS "abs_min", ROUND(AVG(CAST("t"."Milliseconds" AS REAL))) AS "avg_ms", ROUND(SUM("t"."UnitPrice"), 1) AS "sum_price", MAX(("t"."Milliseconds" % NULLIF(1000, 0))) AS "max_rem", COUNT("t"."Composer") AS "composers", COUNT(DISTINCT "t"."AlbumId") AS "albums", ((MAX("t"."TrackId") - 1) + (2 * 3)) AS "arith", (CAST(SUM("t"."Milliseconds") AS REAL) / NULLIF(1000, 0)) AS "seconds", CAST(CAST(SUM("t"."Milliseconds") AS REAL) / NULLIF(1000, 0) AS INTEGER) AS "whole_seconds", SUM(DISTINCT "t"."UnitPrice") AS "distinct_prices", AVG(DISTINCT CAST("t"."UnitPrice" AS REAL)) AS "avg_distinct"
FROM "Track" AS "t"
GROUP BY "t"."GenreId"
ORDER BY "GenreId" ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST, 4 ASC NULLS LAST, 5 ASC NULLS LAST, 6 ASC NULLS LAST, 7 ASC NULLS LAST, 8 ASC NULLS LAST, 9 ASC NULLS LAST, 10 ASC NULLS LAST, 11 ASC NULLS LAST, 12 ASC NULLS LAST
LIMIT 1000
