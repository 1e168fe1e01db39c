-- A push that arrives while a sync of its repository runs is kept as a request for one more sync.
ALTER TABLE "GitSource" ADD COLUMN "resyncRequested" BOOLEAN NOT NULL DEFAULT false;
