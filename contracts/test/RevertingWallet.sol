// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {SingleOwnerWallet} from "./SingleOwnerWallet.sol";

/// @title EIP-1271 wallet that reverts on a bad signature instead of answering 0xffffffff, as Safe does.
contract RevertingWallet is SingleOwnerWallet {
    constructor(address owner_) SingleOwnerWallet(owner_) {}

    /// @notice EIP-1271: the magic value for the owner's signature; reverts otherwise.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view override returns (bytes4) {
        require(_signedByOwner(hash, signature), "GS026");
        return IERC1271.isValidSignature.selector;
    }
}
