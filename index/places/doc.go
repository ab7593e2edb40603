// Package places knows which country a question means when it names the
// country's people instead of the country: "Canadian cities", "orders from
// British customers", "Mexican suppliers". A database stores the country
// ("Canada", "UK", "MEX"), so the question's word matches no stored value,
// no column name and no n-gram of one ("canadian" is two edits from
// "canada", "british" shares nothing with "United Kingdom").
//
// The data is the English demonyms and the names of 245 countries and
// territories from mledoze/countries (https://github.com/mledoze/countries),
// under the Open Database License 1.0, written to countries.tsv by
// scripts/countries; the file names its source. Names lists a country's
// common and official name, its ISO alpha-3 code and the other spellings
// the data set gives, but no two-letter ISO code: "CA" is California as
// often as Canada, so a value that short must be spelled by the question
// itself. Demonyms of several words ("American Samoan") are not looked up.
//
// Worked example:
//
//	places.Names("Canadians") // ["Canada", "CAN"]
//	places.Names("british")   // ["United Kingdom", "United Kingdom of Great Britain and Northern Ireland", "GBR", "UK", "Great Britain"]
//	places.Names("cities")    // nil
//
// Package index/values matches those names against stored values as it
// matches the question's own words (a hit of kind "country"), and package
// index takes a demonym to imply a country column.
package places
