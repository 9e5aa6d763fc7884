# Container image of sportsdb: a static binary on a minimal base, running as an unprivileged
# user with its database in /data.
#
#   docker build --build-arg VERSION=v1.0.0 --build-arg COMMIT=$(git rev-parse HEAD) -t sportsdb .
#   docker run -p 8080:8080 -v sportsdb-data:/data sportsdb
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# The build context holds no .git (.dockerignore), so the version and commit come as
# arguments; `sportsdb version` prints them.
ARG VERSION="" COMMIT="" BUILD_DATE=""
RUN CGO_ENABLED=0 go build -trimpath -o /out/sportsdb \
      -ldflags="-s -w -X main.version=${VERSION} -X main.commit=${COMMIT} -X main.buildDate=${BUILD_DATE:-$(date -u +%Y-%m-%dT%H:%M:%SZ)}" \
      ./cmd/sportsdb \
 && mkdir /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/sportsdb /usr/local/bin/sportsdb
# /data belongs to the image's user (distroless "nonroot", 65532), who creates the database
# in it; made by WORKDIR alone it would be root's and the first start would fail.
# test/image-user.sh checks this layout.
COPY --from=build --chown=65532:65532 /out/data /data
WORKDIR /data
ENV SPORTSDB_ADDR=:8080 SPORTSDB_DB=/data/sportsdb.db SPORTSDB_LOG_FORMAT=json
EXPOSE 8080
USER 65532:65532
# The image has no shell or curl: the binary asks its own /readyz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["/usr/local/bin/sportsdb", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/sportsdb"]
CMD ["serve"]
