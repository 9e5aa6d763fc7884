package webhooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"sportsdb/internal/api"
	"sportsdb/internal/api/respond"
	"sportsdb/internal/clock"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Route names of the webhooks paths, for logs and metrics.
const (
	RouteList = "v2/webhooks"
	RouteOne  = "v2/webhooks/{id}"
)

// MaxPerKey is how many webhooks one key may register.
const MaxPerKey = 10

// maxBody bounds a registration's body.
const maxBody = 64 << 10

// The methods of the webhooks paths.
const (
	listMethods = "GET, HEAD, POST"
	oneMethods  = "GET, HEAD, PATCH, DELETE"
)

var (
	errMalformed = respond.WithCode(http.StatusBadRequest, "Malformed JSON", nil)
	errNotJSON   = respond.WithCode(http.StatusUnsupportedMediaType, "Unsupported Media Type", nil)
	errTooLarge  = respond.WithCode(http.StatusRequestEntityTooLarge, "Request body too large", nil)
	errTooMany   = respond.WithCode(http.StatusConflict, fmt.Sprintf("A key registers at most %d webhooks", MaxPerKey), nil)
)

// Store is what the webhooks API reads and writes.
type Store interface {
	store.Webhooks
	store.Feed
	store.Keys
}

// API answers /api/v2/json/webhooks and /api/v2/json/webhooks/{id} (key in X-API-KEY) over
// the store Bind gives it: the server's mounts are built before the store is open.
type API struct {
	guard Guard
	clock clock.Clock
	st    atomic.Pointer[Store]
}

// NewAPI returns the webhooks API; URLs are checked by guard at registration.
func NewAPI(guard Guard, clk clock.Clock) *API {
	if clk == nil {
		clk = clock.System{}
	}
	return &API{guard: guard, clock: clk}
}

// Bind gives the API its store; a store that keeps no webhooks serves none (404).
func (a *API) Bind(st any) {
	if s, ok := st.(Store); ok {
		a.st.Store(&s)
	}
}

// Match reads /api/v2/json/webhooks, .../webhooks/{id} and .../webhooks/{id}/enable.
func (a *API) Match(version string, segs []string) (api.Target, bool) {
	if version != "v2" || len(segs) == 0 || segs[0] != "webhooks" {
		return api.Target{}, false
	}
	switch {
	case len(segs) == 1:
		return api.Target{Route: RouteList, HeaderKey: true}, true
	case len(segs) == 2 || (len(segs) == 3 && segs[2] == "enable"):
		return api.Target{Route: RouteOne, HeaderKey: true, Args: segs[1:]}, true
	}
	return api.Target{Route: api.OtherRoute, HeaderKey: true, Row: api.NoRow}, true
}

// Routes lists the route names Match gives, api.OtherRoute aside.
func (a *API) Routes() []string { return []string{RouteList, RouteOne} }

// Preflight is what a browser's preflight of a webhooks path is allowed.
func (a *API) Preflight() (methods, headers string) {
	return "GET, POST, PATCH, DELETE", "X-API-KEY, Content-Type"
}

// Serve answers a webhooks path for key k: a premium or business key manages its own
// webhooks, an admin key every key's.
func (a *API) Serve(w http.ResponseWriter, r *http.Request, t api.Target, k store.Key) {
	if err := a.serve(w, r, t, k); err != nil {
		respond.Error(w, r, err)
	}
}

func (a *API) serve(w http.ResponseWriter, r *http.Request, t api.Target, k store.Key) error {
	if k.Tier == store.Free && k.Role != store.Admin {
		return respond.ErrPremiumNeeded
	}
	sp := a.st.Load()
	if !t.Known() || sp == nil {
		return respond.ErrNotFound
	}
	st := *sp
	if t.Route == RouteList {
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			return a.list(w, r, st, k)
		case http.MethodPost:
			return a.create(w, r, st, k)
		}
		w.Header().Set("Allow", listMethods)
		return respond.ErrMethodNotAllowed
	}
	hook, err := st.Webhook(r.Context(), t.Args[0])
	if errors.Is(err, store.ErrNotFound) || (err == nil && !manages(k, hook)) {
		return respond.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("webhooks: read: %w", err)
	}
	if len(t.Args) == 2 { // .../{id}/enable
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			return respond.ErrMethodNotAllowed
		}
		return a.setStatus(w, r, st, hook, store.WebhookActive)
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		return a.answer(w, r, st, http.StatusOK, hook, false)
	case http.MethodPatch:
		return a.patch(w, r, st, hook)
	case http.MethodDelete:
		if err := st.DeleteWebhook(r.Context(), hook.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("webhooks: delete: %w", err)
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	w.Header().Set("Allow", oneMethods)
	return respond.ErrMethodNotAllowed
}

// manages says whether key k sees and manages webhook w.
func manages(k store.Key, w store.Webhook) bool { return k.Role == store.Admin || w.Owner == k.Hash }

func (a *API) list(w http.ResponseWriter, r *http.Request, st Store, k store.Key) error {
	hooks, err := st.ListWebhooks(r.Context())
	if err != nil {
		return fmt.Errorf("webhooks: list: %w", err)
	}
	out := []View{}
	for _, h := range hooks {
		if manages(k, h) {
			out = append(out, a.view(r.Context(), st, h, false))
		}
	}
	return writeJSON(w, http.StatusOK, map[string]any{"webhooks": out})
}

// Definition is what a client sends to register or change a webhook.
type Definition struct {
	URL    *string   `json:"url"`
	Kinds  *[]string `json:"kinds"`
	League *string   `json:"league"`
	Team   *string   `json:"team"`
	// Status, in a PATCH, enables ("active") or disables ("disabled") the webhook.
	Status *string `json:"status"`
}

func (a *API) create(w http.ResponseWriter, r *http.Request, st Store, k store.Key) error {
	var d Definition
	if err := readJSON(r, &d); err != nil {
		return err
	}
	hook, err := a.Register(r.Context(), st, k.Hash, d)
	var ps Problems
	if errors.As(err, &ps) {
		return respond.Invalid("Invalid webhook", ps)
	}
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/api/v2/json/webhooks/"+hook.ID)
	return a.answer(w, r, st, http.StatusCreated, hook, true)
}

// Problems are what is wrong with a webhook's definition, field by field.
type Problems []respond.Problem

func (ps Problems) Error() string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.Field + ": " + p.Problem)
	}
	return b.String()
}

// Register checks a definition and stores a new active webhook of the key whose hash is
// owner ("" for none), with a new secret; delivery starts after the latest change.
// Problems when the definition breaks a rule.
func (a *API) Register(ctx context.Context, st Store, owner string, d Definition) (store.Webhook, error) {
	if d.Status != nil {
		return store.Webhook{}, Problems{{Field: "status", Problem: "set by PATCH once registered"}}
	}
	if d.URL == nil {
		return store.Webhook{}, Problems{{Field: "url", Problem: "required"}}
	}
	hook := store.Webhook{ID: newID(), Owner: owner, Secret: NewSecret(), Created: a.clock.Now(),
		WebhookState: store.WebhookState{Status: store.WebhookActive}}
	if ps := a.apply(ctx, &hook, d); ps != nil {
		return store.Webhook{}, ps
	}
	hooks, err := st.ListWebhooks(ctx)
	if err != nil {
		return store.Webhook{}, fmt.Errorf("webhooks: count: %w", err)
	}
	n := 0
	for _, h := range hooks {
		if h.Owner == owner && owner != "" {
			n++
		}
	}
	if n >= MaxPerKey {
		return store.Webhook{}, errTooMany
	}
	if hook.StartCursor, err = st.LatestCursor(ctx); err != nil {
		return store.Webhook{}, fmt.Errorf("webhooks: latest cursor: %w", err)
	}
	if err := st.AddWebhook(ctx, hook); err != nil {
		return store.Webhook{}, fmt.Errorf("webhooks: add: %w", err)
	}
	return hook, nil
}

func (a *API) patch(w http.ResponseWriter, r *http.Request, st Store, hook store.Webhook) error {
	var d Definition
	if err := readJSON(r, &d); err != nil {
		return err
	}
	if ps := a.apply(r.Context(), &hook, d); ps != nil {
		return respond.Invalid("Invalid webhook", ps)
	}
	if d.URL != nil || d.Kinds != nil || d.League != nil || d.Team != nil {
		if err := st.UpdateWebhook(r.Context(), hook); err != nil {
			return fmt.Errorf("webhooks: update: %w", err)
		}
	}
	if d.Status != nil {
		return a.setStatus(w, r, st, hook, *d.Status)
	}
	return a.answer(w, r, st, http.StatusOK, hook, false)
}

// setStatus enables (failures forgotten, the next attempt at once, from the stored cursor)
// or disables a webhook.
func (a *API) setStatus(w http.ResponseWriter, r *http.Request, st Store, hook store.Webhook, status string) error {
	switch status {
	case store.WebhookActive:
		if hook.Status != store.WebhookActive || hook.Failures > 0 {
			hook.WebhookState = store.WebhookState{Status: store.WebhookActive, LastStatus: hook.LastStatus,
				LastError: hook.LastError, LastDelivery: hook.LastDelivery}
		}
	case store.WebhookDisabled:
		hook.Status, hook.Reason, hook.NextAttempt = store.WebhookDisabled, "disabled by a key", time.Time{}
	default:
		return respond.Invalid("Invalid webhook", []respond.Problem{{Field: "status", Problem: "want active or disabled"}})
	}
	if err := st.SetWebhookState(r.Context(), hook.ID, hook.WebhookState); err != nil {
		return fmt.Errorf("webhooks: status: %w", err)
	}
	return a.answer(w, r, st, http.StatusOK, hook, false)
}

// apply checks a definition and sets what it names; every field that breaks a rule is
// named in the 422.
func (a *API) apply(ctx context.Context, hook *store.Webhook, d Definition) Problems {
	var problems Problems
	if d.URL != nil {
		if err := a.guard.CheckURL(ctx, *d.URL); err != nil {
			problems = append(problems, respond.Problem{Field: "url", Problem: err.Error()})
		}
		hook.URL = *d.URL
	}
	if d.Kinds != nil {
		hook.Kinds = nil
		for _, name := range *d.Kinds {
			if _, ok := record.ByName(name); !ok {
				problems = append(problems, respond.Problem{Field: "kinds", Problem: fmt.Sprintf("no kind %q", name)})
				continue
			}
			hook.Kinds = append(hook.Kinds, name)
		}
	}
	for _, f := range []struct {
		name string
		v    *string
		to   *string
	}{{"league", d.League, &hook.League}, {"team", d.Team, &hook.Team}} {
		if f.v == nil {
			continue
		}
		if !digits(*f.v) {
			problems = append(problems, respond.Problem{Field: f.name, Problem: "want an id: digits only, or empty for any"})
		}
		*f.to = *f.v
	}
	return problems
}

func digits(s string) bool {
	if len(s) > 20 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// readJSON reads a body of one JSON object of Definition's fields.
func readJSON(r *http.Request, v any) error {
	ct := strings.ToLower(strings.TrimSpace(strings.Split(r.Header.Get("Content-Type"), ";")[0]))
	if ct != "application/json" && !strings.HasSuffix(ct, "+json") {
		return errNotJSON
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return respond.ClientGone(err)
	}
	if len(body) > maxBody {
		return errTooLarge
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) {
			return respond.Invalid("Invalid webhook", []respond.Problem{{Field: ute.Field, Problem: "wrong type: want " + ute.Type.String()}})
		}
		if strings.HasPrefix(err.Error(), "json: unknown field ") {
			return respond.Invalid("Invalid webhook", []respond.Problem{{Field: strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`), Problem: "no such field"}})
		}
		return errMalformed
	}
	if dec.More() {
		return errMalformed
	}
	return nil
}

// View is a webhook as the API shows it: never its secret, except once at creation.
type View struct {
	ID     string   `json:"id"`
	URL    string   `json:"url"`
	Kinds  []string `json:"kinds"`
	League string   `json:"league"`
	Team   string   `json:"team"`
	Secret string   `json:"secret,omitempty"`
	Status string   `json:"status"`
	Reason string   `json:"reason"`
	// Owner is the registering key's label, or the start of its hash; never the key.
	Owner        string  `json:"owner"`
	Created      string  `json:"created"`
	Cursor       string  `json:"cursor"`
	LastDelivery *string `json:"last_delivery"`
	LastStatus   int     `json:"last_status"`
	LastError    string  `json:"last_error"`
	Failures     int     `json:"failures"`
	FailingSince *string `json:"failing_since"`
	NextAttempt  *string `json:"next_attempt"`
}

func stamp(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.UTC().Format(time.RFC3339)
	return &s
}

func (a *API) view(ctx context.Context, st Store, h store.Webhook, secret bool) View {
	v := View{ID: h.ID, URL: h.URL, Kinds: h.Kinds, League: h.League, Team: h.Team, Status: h.Status, Reason: h.Reason,
		Owner: ownerName(ctx, st, h.Owner), Created: *stamp(h.Created), Cursor: strconv.FormatInt(h.StartCursor, 10),
		LastDelivery: stamp(h.LastDelivery), LastStatus: h.LastStatus, LastError: h.LastError, Failures: h.Failures,
		FailingSince: stamp(h.FailingSince), NextAttempt: stamp(h.NextAttempt)}
	if v.Kinds == nil {
		v.Kinds = []string{}
	}
	if secret {
		v.Secret = h.Secret
	}
	if p, ok := st.(store.Pushes); ok {
		if c, err := p.PushCursor(ctx, store.WebhookPush(h.ID)); err == nil && c != store.NoCursor {
			v.Cursor = strconv.FormatInt(c, 10)
		}
	}
	if h.Status == store.WebhookActive && h.Failures > 0 && h.NextAttempt.IsZero() {
		v.NextAttempt = stamp(a.clock.Now())
	}
	return v
}

// ownerName is how a key is named without showing it: its label, or the start of its hash.
func ownerName(ctx context.Context, st Store, hash string) string {
	if hash == "" {
		return ""
	}
	if k, err := st.KeyByHash(ctx, hash); err == nil && k.Label != "" {
		return k.Label
	}
	return hash[:min(8, len(hash))]
}

func (a *API) answer(w http.ResponseWriter, r *http.Request, st Store, status int, h store.Webhook, secret bool) error {
	return writeJSON(w, status, map[string]any{"webhook": a.view(r.Context(), st, h, secret)})
}

func writeJSON(w http.ResponseWriter, status int, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("webhooks: answer: %w", err)
	}
	w.Header().Set("Cache-Control", "no-store")
	respond.Status(w, status, body)
	return nil
}
