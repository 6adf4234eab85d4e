-- The form of `sub` in a client's ID tokens, userinfo and introspection (docs/reference/login.md: subject formats): 'address'
-- (the predecessor's lower-case address, the default) or 'caip10' (eip155:<chainId>:<checksummed address>).
ALTER TABLE login_clients ADD COLUMN subject_format text NOT NULL DEFAULT 'address' CHECK (subject_format IN ('address', 'caip10'));
