-- When a begun authorization last presented a kept OAuth client without one completing since
ALTER TABLE "OAuthClient" ADD COLUMN "presentedAt" TIMESTAMP(3);
