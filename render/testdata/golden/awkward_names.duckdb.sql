SELECT "o"."select" AS "select", "o"."unit price" AS "unit price", "o"."größe" AS "größe", "o"."客户" AS "客户", "o"."Group" AS "group", "o"."a""b" AS "it's ""quoted""", CAST(SUM("oi"."Qty") AS BIGINT) AS "order"
FROM "order" AS "o"
LEFT JOIN "Order Items" AS "oi" ON "o"."select" = "oi"."OrderSelect"
WHERE ("o"."客户" <> 'O''Reilly''); DROP TABLE t; --')
GROUP BY "o"."select", "o"."unit price", "o"."größe", "o"."客户", "o"."Group", "o"."a""b"
ORDER BY "order" DESC NULLS LAST, 1 ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST, 4 ASC NULLS LAST, 5 ASC NULLS LAST, 6 ASC NULLS LAST
LIMIT 1000
