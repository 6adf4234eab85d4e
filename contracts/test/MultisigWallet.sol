// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title k-of-n EIP-1271 wallet: `threshold` signatures of distinct owners, concatenated in ascending owner order.
contract MultisigWallet is IERC1271 {
    mapping(address => bool) public isOwner;
    uint256 public immutable threshold;

    constructor(address[] memory owners, uint256 threshold_) {
        require(threshold_ > 0 && threshold_ <= owners.length, "bad threshold");
        for (uint256 i; i < owners.length; ++i) isOwner[owners[i]] = true;
        threshold = threshold_;
    }

    /// @notice EIP-1271: the magic value when `signature` holds `threshold` owner signatures over `hash`.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != threshold * 65) return 0xffffffff;
        address previous;
        for (uint256 i; i < threshold; ++i) {
            (address signer, ECDSA.RecoverError error, ) = ECDSA.tryRecover(hash, signature[i * 65:(i + 1) * 65]);
            // Ascending order makes each owner count once.
            if (error != ECDSA.RecoverError.NoError || !isOwner[signer] || signer <= previous) return 0xffffffff;
            previous = signer;
        }
        return IERC1271.isValidSignature.selector;
    }
}
