import { rpcEnvName } from "../chain/registry";
import { DomainError } from "../lib/domain-error";

/** The post body is not the `{iss, sig, metadata}` object the service takes. */
export function invalidRequest(message: string): DomainError {
  return new DomainError("invalid", "invalid_request", message);
}

/** `metadata` is not the standard Base64 of a UTF-8 JSON object. */
export function invalidMetadata(message: string): DomainError {
  return new DomainError("invalid", "invalid_metadata", message);
}

export function metadataTooLarge(maxBytes: number): DomainError {
  return new DomainError("too_large", "payload_too_large", `metadata is larger than ${maxBytes} bytes`);
}

/** `sig` is not a signature at all (not hex bytes, wrong length, out-of-range values). */
export function malformedSignature(message: string): DomainError {
  return new DomainError("invalid", "malformed_signature", message);
}

/** A well-formed signature that does not prove `iss` signed this target's text (nor, where allowed, the Base64 alone). */
export function invalidSignature(): DomainError {
  return new DomainError("unauthorized", "invalid_signature", "sig is not a signature by iss of this target's text");
}

/** SIGNED_METADATA_REQUIRE_BINDING is set and the signature covers the Base64 alone. */
export function bindingRequired(): DomainError {
  return new DomainError(
    "unauthorized",
    "binding_required",
    "sig covers the metadata alone; this service requires the signed text to name the target (see docs/reference/metadata.md)",
  );
}

/** Account metadata signed by a contract wallet: only an externally owned account may issue it. */
export function eoaRequired(): DomainError {
  return new DomainError(
    "forbidden",
    "eoa_required",
    "Account metadata must be issued by an externally owned account, not a contract wallet",
  );
}

/** Not an EOA's signature, and the contract wallet it may be could only be asked through a node the network lacks. */
export function walletCheckUnavailable(network: string): DomainError {
  const message = `sig is not an EOA's signature by iss, and a contract wallet's needs the ${network} node, which is not configured (${rpcEnvName(network)})`;
  return new DomainError("unavailable", "network_unavailable", message);
}

/** The body was the issuer's current one before and has been replaced: posting it again would roll back. */
export function replayed(): DomainError {
  return new DomainError("conflict", "replayed", "This body was posted before and has been superseded; sign new content instead");
}
