# Herald's image: the self-contained release binary (Scripts/release.sh) on Debian's slim image.
#
#   Scripts/release.sh                                  # → herald-<version>-linux-<arch>.tar.gz
#   docker build --build-arg ARCHIVE=herald-0.9.0-linux-x86_64.tar.gz -t herald .
#   docker run -p 8080:8080 -v herald-data:/var/lib/herald herald
#
# No Swift toolchain is needed: the binary links the Swift runtime statically. (No container
# engine runs where Herald is developed: the binary's independence from the toolchain is proven
# by Scripts/release-check.sh in a bare Debian root; this file and deploy/compose.yaml are not.)
FROM debian:bookworm-slim

ARG ARCHIVE
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl libjemalloc2 libsqlite3-0 tzdata \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --home-dir /var/lib/herald --shell /usr/sbin/nologin herald \
 && install -d -o herald -g herald -m 0700 /var/lib/herald \
 && install -d -m 0755 /etc/herald

ADD ${ARCHIVE} /opt/
RUN install -m 0755 /opt/herald-*/herald /usr/local/bin/herald \
 && install -m 0644 /opt/herald-*/herald.example.yaml /etc/herald/herald.yaml \
 && rm -rf /opt/herald-*

USER herald
WORKDIR /var/lib/herald
ENV HERALD_DATA_DIR=/var/lib/herald \
    HERALD_DATABASE_URL=sqlite:///var/lib/herald/herald.sqlite \
    HERALD_HOST=0.0.0.0 \
    HERALD_PORT=8080
VOLUME ["/var/lib/herald"]
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 CMD curl -fsS http://127.0.0.1:8080/ready || exit 1
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/herald"]
CMD ["serve", "--config", "/etc/herald/herald.yaml"]
