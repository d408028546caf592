# The service image from an app already staged on the host (scripts/stage-app.sh), on a base
# bootstrapped from Debian packages (scripts/build-images.sh): the air-gapped twin of
# docker/app.Dockerfile, with the same /app layout, user and entry point. The build context is
# the staged folder; nothing is downloaded.
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
COPY . /app
WORKDIR /app
ENV NODE_ENV=production NODE_OPTIONS=--enable-source-maps
USER 10000:10000
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/web.mjs"]
LABEL org.opencontainers.image.title=secondshift-app
