// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MintableNFT} from "./MintableNFT.sol";

/// @title The "Alice" side of a conversion (the token users convert from).
contract AliceNFT is MintableNFT {
    constructor(address owner_) MintableNFT("Alice", "ALICE", owner_) {}
}
