// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MintableNFT} from "./MintableNFT.sol";

/// @title The "Bob" side of a conversion (the token users convert to).
contract BobNFT is MintableNFT {
    constructor(address owner_) MintableNFT("Bob", "BOB", owner_) {}
}
