// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";

/// @title ERC-721 whose tokenURIs tests set freely (data: URIs, URLs of a local server, hostile values).
contract MetadataNFT is ERC721 {
    mapping(uint256 => string) private _uris;

    constructor() ERC721("Metadata", "META") {}

    /// @notice Mints `id` to `to` with `uri` as its tokenURI (anyone may: test token).
    function mint(address to, uint256 id, string calldata uri) external {
        _uris[id] = uri;
        _mint(to, id);
    }

    /// @notice Replaces the tokenURI of `id`.
    function setTokenURI(uint256 id, string calldata uri) external {
        _uris[id] = uri;
    }

    /// @notice The URI set for `id`; reverts for a token that does not exist.
    function tokenURI(uint256 id) public view override returns (string memory) {
        _requireOwned(id);
        return _uris[id];
    }
}
