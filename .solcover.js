// Test-only contracts (tokens, wallets, the predecessor's logic for gas comparison) are not measured.
module.exports = { skipFiles: ["test/"] };
