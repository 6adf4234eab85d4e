// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title Owner-mintable ERC-721 used by tests, benchmarks and the demo deployment.
/// @dev Plain OpenZeppelin ERC-721 so gas figures measured against it match real-world tokens.
abstract contract MintableNFT is ERC721, Ownable {
    constructor(string memory name_, string memory symbol_, address owner_) ERC721(name_, symbol_) Ownable(owner_) {}

    /// @notice Mints `id` to `to`.
    function mint(address to, uint256 id) external onlyOwner {
        _mint(to, id);
    }

    /// @notice Mints every id of `ids` to `to`.
    function mintBatch(address to, uint256[] calldata ids) external onlyOwner {
        for (uint256 i; i < ids.length; ++i) {
            _mint(to, ids[i]);
        }
    }

    /// @notice Burns `id` (its owner or an approved operator).
    function burn(uint256 id) external {
        _update(address(0), id, msg.sender);
    }

    /// @notice Mints `count` consecutive ids starting at `firstId` to `to` (cheap bulk setup for benchmarks).
    function mintRange(address to, uint256 firstId, uint256 count) external onlyOwner {
        for (uint256 i; i < count; ++i) {
            _mint(to, firstId + i);
        }
    }
}
