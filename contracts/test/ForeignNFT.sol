// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MintableNFT} from "./MintableNFT.sol";

/// @title An ERC-721 that is neither Alice nor Bob (the converter must refuse it and let the admin recover it).
contract ForeignNFT is MintableNFT {
    constructor(address owner_) MintableNFT("Foreign", "FOREIGN", owner_) {}
}
