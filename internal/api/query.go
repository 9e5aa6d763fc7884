package api

import (
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Query building blocks, so the endpoint tables and answer functions read as data. Name
// conditions are folded by the store.

func Eq(field, v string) store.Cond { return store.Cond{Field: field, Op: store.Eq, Value: v} }

func EqName(field, v string) store.Cond {
	return store.Cond{Field: field, Norm: record.Name, Op: store.Eq, Value: v}
}

func ContainsName(field, v string) store.Cond {
	return store.Cond{Field: field, Norm: record.Name, Op: store.Contains, Value: v}
}

func ListHas(field, v string) store.Cond {
	return store.Cond{Field: field, Norm: record.List, Op: store.ListHas, Value: v}
}

func ListContains(field, v string) store.Cond {
	return store.Cond{Field: field, Norm: record.List, Op: store.ListContains, Value: v}
}

func Compare(field string, op store.Op, v string) store.Cond {
	return store.Cond{Field: field, Op: op, Value: v}
}

func Or(conds ...store.Cond) store.Cond { return store.Cond{Or: conds} }

func Where(conds ...store.Cond) store.Query { return store.Query{Where: conds} }

// Sorted returns q with its sort keys.
func Sorted(q store.Query, orders ...store.Order) store.Query {
	q.OrderBy = orders
	return q
}

func Asc(field string) store.Order  { return store.Order{Field: field} }
func Desc(field string) store.Order { return store.Order{Field: field, Desc: true} }

// ByName sorts on a folded name, so accents and case do not change the order.
func ByName(field string) store.Order { return store.Order{Field: field, Norm: record.Name} }

// ByID sorts on an id field as a number (ids are canonical integers); on the kind's key
// field it is the store's id.
func ByID(field string) store.Order { return store.Order{Field: field, Numeric: true} }

// OrderBy lists sort keys, for a row's Order.
func OrderBy(orders ...store.Order) []store.Order { return orders }

// The orders of next and previous events: by kick-off, events that share it by id (the
// public service's order of the recorded schedules).
var (
	SoonestFirst = OrderBy(Asc("strTimestamp"), ByID("idEvent"))
	LatestFirst  = OrderBy(Desc("strTimestamp"), ByID("idEvent"))
)

// LiveOrder is a live feed's order as recorded: by strStatus, then strProgress as text
// ("18" before "5"), then id; the whole feed of every sport comes by id (LiveByID).
var (
	LiveOrder = OrderBy(Asc("strStatus"), Asc("strProgress"), ByID("idLiveScore"))
	LiveByID  = OrderBy(ByID("idLiveScore"))
)
