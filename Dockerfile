FROM node:20-slim
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.base.json ./
COPY packages ./packages
COPY scripts ./scripts
RUN npm ci
ENV HOST=0.0.0.0 PORT=3000
EXPOSE 3000
# Applies migrations, imports the demo property into an empty database, then serves.
CMD ["npm", "start"]
