-- Who asked for each sign-in message: the client's IP address as TRUST_PROXY resolves it (an IPv6 address by its
-- /64). Open messages are counted per requester, and /api/login tries the caller's own messages first, so what one
-- requester asks for an address never crowds out another's.
ALTER TABLE login_challenges ADD COLUMN requester text NOT NULL DEFAULT '';
CREATE INDEX login_challenges_requester ON login_challenges (requester, expires_at);
