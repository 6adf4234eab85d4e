// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title EIP-1271 wallet of one owner: a signature is valid when the owner signed the hash itself.
contract SingleOwnerWallet is IERC1271 {
    /// @notice The key that signs for this wallet.
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    /// @notice EIP-1271: the magic value when `signature` is the owner's over `hash`, else 0xffffffff.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view virtual returns (bytes4) {
        return _signedByOwner(hash, signature) ? IERC1271.isValidSignature.selector : bytes4(0xffffffff);
    }

    /// @dev Whether `signature` is the owner's over `hash` (a malformed signature is not).
    function _signedByOwner(bytes32 hash, bytes calldata signature) internal view returns (bool) {
        (address signer, ECDSA.RecoverError error, ) = ECDSA.tryRecover(hash, signature);
        return error == ECDSA.RecoverError.NoError && signer == owner;
    }
}
