-- School districts loaded with no rows (nothing to profile) and no
-- foreign keys: a declared primary key (SiteCode) is referenced by a
-- column named without its key word (test_scores.site), dates are DATE
-- columns and a year is an integer whose range is unknown.
CREATE TABLE districts (DistrictCode TEXT PRIMARY KEY, DistrictName TEXT, County TEXT, Superintendent TEXT);
CREATE TABLE schools (SiteCode TEXT PRIMARY KEY, district TEXT, SchoolName TEXT, OpenDate DATE, ClosedDate DATE, Enrollment INTEGER, Charter INTEGER,
  Street TEXT, City TEXT, Zip TEXT, Phone TEXT, Website TEXT, Principal TEXT, Latitude REAL, Longitude REAL);
CREATE TABLE test_scores (site TEXT, AvgMath REAL, AvgReading REAL, NumTakers INTEGER, TestYear INTEGER);
CREATE TABLE teachers (TeacherCode TEXT PRIMARY KEY, site TEXT, Fname TEXT, Lname TEXT, HireDate DATE, Salary REAL, Subject TEXT, Grade TEXT,
  Email TEXT, Phone TEXT, Tenure INTEGER, Contract TEXT);
CREATE TABLE buses (BusNo TEXT PRIMARY KEY, district TEXT, Capacity INTEGER, Fuel TEXT, Mileage INTEGER);
CREATE TABLE meals (site TEXT, FreeMeals INTEGER, ReducedMeals INTEGER, Eligible INTEGER);
