package v1

import (
	"context"
	"net/url"

	"sportsdb/internal/api"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// SearchPlayers answers searchplayers.php with query on deps' store, capped at limit.
func SearchPlayers(ctx context.Context, deps api.Deps, tier store.Tier, limit int, query url.Values) (api.Answer, error) {
	return searchPlayers(deps.NewRequest(ctx, tier, record.Player, limit, nil), params{query})
}

// SearchTeams answers searchteams.php with query on deps' store, capped at limit.
func SearchTeams(ctx context.Context, deps api.Deps, tier store.Tier, limit int, query url.Values) (api.Answer, error) {
	return searchTeams(deps.NewRequest(ctx, tier, record.Team, limit, nil), params{query})
}

// SearchVenues answers searchvenues.php with query on deps' store, capped at limit.
func SearchVenues(ctx context.Context, deps api.Deps, tier store.Tier, limit int, query url.Values) (api.Answer, error) {
	return searchVenues(deps.NewRequest(ctx, tier, record.Venue, limit, nil), params{query})
}
