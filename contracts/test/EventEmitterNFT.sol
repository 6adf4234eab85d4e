// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Emits NFT events with whatever arguments it is given (no state): ranges no real collection would claim,
/// one id moved with both the ERC-721 and the ERC-1155 event, batches of any size, and CryptoKitties' Transfer without indexed arguments.
contract EventEmitterNFT {
    event ConsecutiveTransfer(uint256 indexed fromTokenId, uint256 toTokenId, address indexed fromAddress, address indexed toAddress);
    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);

    function consecutive(uint256 fromTokenId, uint256 toTokenId, address from, address to) external {
        emit ConsecutiveTransfer(fromTokenId, toTokenId, from, to);
    }

    function transfer721(address from, address to, uint256 id) external {
        emit Transfer(from, to, id);
    }

    function transfer1155(address from, address to, uint256 id, uint256 value) external {
        emit TransferSingle(msg.sender, from, to, id, value);
    }

    /// @notice Moves one each of the `count` ids from `firstId` on, in one TransferBatch.
    function transferBatch1155(address from, address to, uint256 firstId, uint256 count) external {
        uint256[] memory ids = new uint256[](count);
        uint256[] memory values = new uint256[](count);
        for (uint256 i = 0; i < count; i++) {
            ids[i] = firstId + i;
            values[i] = 1;
        }
        emit TransferBatch(msg.sender, from, to, ids, values);
    }

    /// @notice The same move announced in both standards, ERC-721 first or ERC-1155 first.
    function transferBoth(address from, address to, uint256 id, bool erc1155First) external {
        if (erc1155First) emit TransferSingle(msg.sender, from, to, id, 1);
        emit Transfer(from, to, id);
        if (!erc1155First) emit TransferSingle(msg.sender, from, to, id, 1);
    }
}
