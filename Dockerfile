# Container image of sportsdb: a static binary on a minimal base.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/sportsdb ./cmd/sportsdb

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/sportsdb /usr/local/bin/sportsdb
WORKDIR /data
ENV SPORTSDB_ADDR=:8080 SPORTSDB_DB=/data/sportsdb.db SPORTSDB_LOG_FORMAT=json
EXPOSE 8080
USER nonroot
ENTRYPOINT ["/usr/local/bin/sportsdb"]
CMD ["serve"]
