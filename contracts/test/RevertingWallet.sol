// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title EIP-1271 wallet that reverts on a bad signature instead of answering 0xffffffff, as Safe does.
contract RevertingWallet is IERC1271 {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    /// @notice EIP-1271: the magic value for the owner's signature; reverts otherwise.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (address signer, ECDSA.RecoverError error, ) = ECDSA.tryRecover(hash, signature);
        require(error == ECDSA.RecoverError.NoError && signer == owner, "GS026");
        return IERC1271.isValidSignature.selector;
    }
}
