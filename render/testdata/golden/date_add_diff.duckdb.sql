SELECT * FROM (SELECT "cu"."CustomerId" AS "CustomerId", CAST(CAST("cu"."SignupDate" AS TIMESTAMP) + to_years(CAST(1 AS INTEGER)) AS DATE) AS "plus_year", CAST(CAST("cu"."SignupDate" AS TIMESTAMP) + to_months(CAST(-2 AS INTEGER) * 3) AS DATE) AS "plus_quarter", CAST(CAST("cu"."SignupDate" AS TIMESTAMP) + to_months(CAST(1 AS INTEGER)) AS DATE) AS "plus_month", CAST(CAST(CAST("cu"."SignupDate" AS TIMESTAMP) AS DATE) + CAST(30 AS INTEGER) AS DATE) AS "plus_day", date_diff('day', CAST(DATE '2021-01-01' AS DATE), CAST("cu"."SignupDate" AS DATE)) AS "age_days", date_diff('day', CAST("cu"."SignupDate" AS DATE), CAST(TIMESTAMP '2022-01-01 10:00:00' AS DATE)) AS "days_left"
FROM "Customer" AS "cu"
WHERE ("cu"."SignupDate" < CAST(CAST(DATE '2021-06-30' AS TIMESTAMP) + to_years(CAST(1 AS INTEGER)) AS DATE))
LIMIT 1000) AS "first_rows"
ORDER BY 1 ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST, 4 ASC NULLS LAST, 5 ASC NULLS LAST, 6 ASC NULLS LAST, 7 ASC NULLS LAST
