# Build: the client bundle and the single executable.
FROM oven/bun:1.4.4-debian AS build
WORKDIR /src
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile
COPY . .
RUN bun run build && mkdir -p /data

# Run: only the executable (glibc and libgcc come from the distroless base), as non-root.
FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=build /src/dist/cam-guide /cam-guide
COPY --from=build --chown=65532:65532 /data /data
ENV DATA_DIR=/data \
    PORT=3000 \
    HOST=0.0.0.0 \
    NODE_ENV=production
VOLUME ["/data"]
EXPOSE 3000
USER nonroot
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["/cam-guide", "healthcheck"]
ENTRYPOINT ["/cam-guide"]
CMD ["serve"]
