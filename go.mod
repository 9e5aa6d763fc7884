module sportsdb

go 1.26.8

require golang.org/x/text v0.43.0
