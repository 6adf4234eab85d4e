// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Emits many ERC-721 Transfer logs in one transaction, and stores nothing.
/// @dev What any contract can do to its watchers: tests fill the indexer's change log with it at a fraction of
///      the gas real mints cost.
contract TransferFlood {
    /// @notice ERC-721's Transfer, as indexers read it.
    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);

    /// @notice Announces `count` mints to `to` of ids `firstId`, `firstId + 1`, and so on.
    function flood(address to, uint256 firstId, uint256 count) external {
        for (uint256 i; i < count; ++i) {
            emit Transfer(address(0), to, firstId + i);
        }
    }
}
