// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

/// @title ERC-721 whose tokenURI is a settable base followed by the id, and which emits ERC-4906 events on demand.
contract UpdatableMetadataNFT is ERC721 {
    /// @dev ERC-4906.
    event MetadataUpdate(uint256 _tokenId);
    /// @dev ERC-4906; `_toTokenId` = type(uint256).max names the whole collection.
    event BatchMetadataUpdate(uint256 _fromTokenId, uint256 _toTokenId);

    string private _base;

    constructor(string memory base) ERC721("Updatable", "UPD") {
        _base = base;
    }

    /// @notice Mints ids `from` to `from + count - 1` to `to` (anyone may: test token).
    function mintRange(address to, uint256 from, uint256 count) external {
        for (uint256 i = 0; i < count; i++) _mint(to, from + i);
    }

    /// @notice Replaces the base of every tokenURI, without any event.
    function setBase(string calldata base) external {
        _base = base;
    }

    function announce(uint256 id) external {
        emit MetadataUpdate(id);
    }

    function announceRange(uint256 from, uint256 to) external {
        emit BatchMetadataUpdate(from, to);
    }

    function tokenURI(uint256 id) public view override returns (string memory) {
        _requireOwned(id);
        return string.concat(_base, Strings.toString(id));
    }
}
