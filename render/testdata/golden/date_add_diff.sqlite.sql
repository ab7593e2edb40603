SELECT * FROM (SELECT "cu"."CustomerId" AS "CustomerId", date("cu"."SignupDate", (1) || ' years', 'floor') AS "plus_year", date("cu"."SignupDate", ((-2) * 3) || ' months', 'floor') AS "plus_quarter", date("cu"."SignupDate", (1) || ' months', 'floor') AS "plus_month", date("cu"."SignupDate", (30) || ' days') AS "plus_day", CAST(julianday(date("cu"."SignupDate")) - julianday(date('2021-01-01')) AS INTEGER) AS "age_days", CAST(julianday(date('2022-01-01 10:00:00')) - julianday(date("cu"."SignupDate")) AS INTEGER) AS "days_left", ROUND((julianday('2022-01-01 10:00:00') - julianday("cu"."SignupDate")) * 86400, 3) AS "seconds_left"
FROM "Customer" AS "cu"
WHERE (date("cu"."SignupDate") < date('2021-06-30', (1) || ' years', 'floor'))
LIMIT 1000 OFFSET 0) AS "first_rows"
ORDER BY 1 ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST, 4 ASC NULLS LAST, 5 ASC NULLS LAST, 6 ASC NULLS LAST, 7 ASC NULLS LAST, 8 ASC NULLS LAST
