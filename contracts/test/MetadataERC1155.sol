// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";

/// @title ERC-1155 with a settable uri template (with its {id} placeholder) for the metadata tests.
contract MetadataERC1155 is ERC1155 {
    constructor(string memory uri_) ERC1155(uri_) {}

    /// @notice Mints `amount` of `id` to `to` (anyone may: test token).
    function mint(address to, uint256 id, uint256 amount) external {
        _mint(to, id, amount, "");
    }

    /// @notice Mints several ids at once (one TransferBatch event).
    function mintBatch(address to, uint256[] calldata ids, uint256[] calldata amounts) external {
        _mintBatch(to, ids, amounts, "");
    }

    /// @notice Replaces the uri template of every id.
    function setURI(string calldata uri_) external {
        _setURI(uri_);
    }
}
