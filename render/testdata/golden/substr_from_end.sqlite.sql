SELECT "c"."LastName" AS "last_name", SUBSTR("c"."FirstName", 1, (CASE WHEN 1 < 0 THEN 0 ELSE 1 END)) AS "initial", SUBSTR("c"."Email", (CASE WHEN 6 >= LENGTH("c"."Email") THEN 1 ELSE LENGTH("c"."Email") - 6 + 1 END), (CASE WHEN 6 < 0 THEN 0 ELSE 6 END)) AS "email_tail", SUBSTR("c"."Email", -3) AS "tld", SUBSTR("c"."LastName", -4, 2) AS "mid"
FROM "Customer" AS "c"
WHERE (SUBSTR("c"."Email", -3) = '.br')
ORDER BY "last_name" ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST, 4 ASC NULLS LAST, 5 ASC NULLS LAST
LIMIT 1000
