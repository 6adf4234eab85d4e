// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title ERC-20 whose Transfer events share topic0 with ERC-721's: the indexer must not take them for NFTs.
contract TestERC20 is ERC20 {
    constructor() ERC20("Test", "TST") {}

    /// @notice Mints `amount` to `to` (anyone may: test token).
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
