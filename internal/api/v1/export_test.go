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
