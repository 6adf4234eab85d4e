// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Emits many ERC-1155 transfer logs in one transaction, and stores nothing.
/// @dev The ERC-1155 side of TransferFlood: the indexer's bench syncs as many ERC-1155 transfers as ERC-721 ones,
///      laid out in blocks alike, at a fraction of the gas real mints cost.
contract TransferFlood1155 {
    /// @notice ERC-1155's TransferSingle, as indexers read it.
    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    /// @notice ERC-1155's TransferBatch, as indexers read it.
    event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);

    /// @notice Announces `count` mints to `to`, one TransferSingle each, of one unit of ids `firstId`, `firstId + 1`, and so on.
    function floodSingle(address to, uint256 firstId, uint256 count) external {
        for (uint256 i; i < count; ++i) {
            emit TransferSingle(msg.sender, address(0), to, firstId + i, 1);
        }
    }

    /// @notice Announces `batches` TransferBatch mints to `to` of `perBatch` ids each, one unit of each, ids from `firstId` on.
    function floodBatch(address to, uint256 firstId, uint256 batches, uint256 perBatch) external {
        uint256[] memory ids = new uint256[](perBatch);
        uint256[] memory values = new uint256[](perBatch);
        for (uint256 j; j < perBatch; ++j) values[j] = 1;
        for (uint256 b; b < batches; ++b) {
            for (uint256 j; j < perBatch; ++j) ids[j] = firstId + b * perBatch + j;
            emit TransferBatch(msg.sender, address(0), to, ids, values);
        }
    }
}
